import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { parseSshPublicKey } from "./ssh-key";

/**
 * The fixtures format: the records the emulator starts with. Tests and demos describe their
 * world in it, so every mistake is reported with the JSON path of the offending value.
 */

const positiveId = z.number().int().positive();

// The uid is a URL segment; the underscore prefix is kept free for the control endpoints.
const accountUid = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be letters, digits, '.', '_' or '-', not starting with '.', '_' or '-'");

const userSchema = z.object({
  id: positiveId,
  name: z.string().min(1),
  email: z.email(),
  apiKey: z.string().min(1),
});

const publicKeySchema = z.object({
  id: positiveId.optional(),
  userId: positiveId.optional(),
  name: z.string().min(1).max(255).optional(),
  publicKey: z.string().min(1),
});

const accountSchema = z.object({
  id: positiveId,
  uid: accountUid,
  users: z.array(userSchema).min(1),
  publicKeys: z.array(publicKeySchema).optional(),
});

const recordsSchema = z.object({ accounts: z.array(accountSchema) });

export const fixturesSchema = recordsSchema.superRefine(checkReferences);

/** Fixtures as written by hand (optional fields may be left out). */
export type Fixtures = z.input<typeof fixturesSchema>;
/** Fixtures after validation. */
export type ValidFixtures = z.output<typeof fixturesSchema>;

type Path = (string | number)[];

/** Reports the second occurrence of a value that must be unique, at its own path. */
function checkUnique<T>(
  ctx: z.RefinementCtx,
  values: { value: T; path: Path }[],
  what: string,
): void {
  const seen = new Set<T>();
  for (const { value, path } of values) {
    if (seen.has(value)) {
      ctx.addIssue({ code: "custom", path, message: `duplicate ${what}` });
    }
    seen.add(value);
  }
}

/** Cross-record rules zod's per-field schemas cannot express. */
function checkReferences(fixtures: z.output<typeof recordsSchema>, ctx: z.RefinementCtx): void {
  const accounts = fixtures.accounts;
  checkUnique(ctx, accounts.map((a, i) => ({ value: a.id, path: ["accounts", i, "id"] })), "account id");
  checkUnique(ctx, accounts.map((a, i) => ({ value: a.uid, path: ["accounts", i, "uid"] })), "account uid");
  // A key alone identifies the caller, so it must be unique across every account.
  checkUnique(
    ctx,
    accounts.flatMap((a, i) => a.users.map((u, j) => ({ value: u.apiKey, path: ["accounts", i, "users", j, "apiKey"] }))),
    "apiKey",
  );
  // Users and keys are numbered by one sequence each, as in a single database.
  checkUnique(
    ctx,
    accounts.flatMap((a, i) => a.users.map((u, j) => ({ value: u.id, path: ["accounts", i, "users", j, "id"] }))),
    "user id",
  );
  checkUnique(
    ctx,
    accounts.flatMap((a, i) =>
      (a.publicKeys ?? []).flatMap((k, j) => (k.id === undefined ? [] : [{ value: k.id, path: ["accounts", i, "publicKeys", j, "id"] }])),
    ),
    "public key id",
  );
  accounts.forEach((account, i) => checkAccountKeys(account, i, ctx));
}

function checkAccountKeys(account: z.output<typeof accountSchema>, index: number, ctx: z.RefinementCtx): void {
  const userIds = new Set(account.users.map((u) => u.id));
  (account.publicKeys ?? []).forEach((key, j) => {
    const path = ["accounts", index, "publicKeys", j];
    if (key.userId !== undefined && !userIds.has(key.userId)) {
      ctx.addIssue({ code: "custom", path: [...path, "userId"], message: `no user with id ${key.userId} in this account` });
    }
    const parsed = parseSshPublicKey(key.publicKey);
    if (!parsed.ok) {
      // The parser speaks of the API's field name; here the field is publicKey.
      const message = parsed.reason.replace(/^public_key/, "publicKey");
      ctx.addIssue({ code: "custom", path: [...path, "publicKey"], message });
    } else if (key.name === undefined && parsed.comment === "") {
      ctx.addIssue({ code: "custom", path: [...path, "name"], message: "name is required when publicKey has no comment" });
    }
  });
}

/** `accounts[0].users[1].apiKey` style, the way people read JSON. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    text += typeof segment === "number" ? `[${segment}]` : `${text === "" ? "" : "."}${String(segment)}`;
  }
  return text === "" ? "(root)" : text;
}

export class FixturesError extends Error {
  override name = "FixturesError";
}

export function validateFixtures(input: unknown, source = "fixtures"): ValidFixtures {
  const result = fixturesSchema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  throw new FixturesError(`invalid ${source}: ${details.join("; ")}`);
}

export function loadFixturesFile(path: string): ValidFixtures {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new FixturesError(`cannot read fixtures file ${path}: ${code}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FixturesError(`fixtures file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return validateFixtures(json, `fixtures file ${path}`);
}

/** A fresh key per call, so no usable credential is ever written into the source. */
function randomApiKey(): string {
  return randomBytes(20).toString("hex");
}

export function defaultFixtures(): ValidFixtures {
  return {
    accounts: [
      {
        id: 1,
        uid: "acme-data",
        users: [{ id: 1, name: "Dana Platform", email: "dana@example.com", apiKey: randomApiKey() }],
        publicKeys: [],
      },
    ],
  };
}
