import { z } from "zod";
import { parseSshPublicKey } from "../../../contract/ssh-public-key";
import { MAX_NAME_LENGTH } from "../../../contract/text";
import { checkUnique, defaultUserId, positiveId, type FixtureAccount } from "../../fixtures/account";
import type { Store } from "../../store";
import { accountFixtures, type AccountItems } from "../area";
import { insertPublicKey } from "./model";

/** `publicKeys` of an account: a key's `userId` defaults to the first user, its `name` to its comment. */

const publicKeySchema = z.object({
  id: positiveId.optional(),
  userId: positiveId.optional(),
  name: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  publicKey: z.string().min(1),
});

type PublicKeyFixture = z.output<typeof publicKeySchema>;

function checkAccountKeys({ account, index, items }: AccountItems<PublicKeyFixture[] | undefined>, ctx: z.RefinementCtx): void {
  const userIds = new Set(account.users.map((u) => u.id));
  (items ?? []).forEach((key, j) => {
    const path = ["accounts", index, "publicKeys", j];
    if (key.userId !== undefined && !userIds.has(key.userId)) {
      ctx.addIssue({ code: "custom", path: [...path, "userId"], message: `no user with id ${key.userId} in this account` });
    }
    const parsed = parseSshPublicKey(key.publicKey);
    if (!parsed.ok) {
      // The parser speaks of the API's field name; here the field is publicKey.
      const message = `publicKey ${parsed.rule}`;
      ctx.addIssue({ code: "custom", path: [...path, "publicKey"], message });
    } else if (key.name === undefined && parsed.key.comment === "") {
      ctx.addIssue({ code: "custom", path: [...path, "name"], message: "name is required when publicKey has no comment" });
    }
  });
}

function checkKeys(accounts: readonly AccountItems<PublicKeyFixture[] | undefined>[], ctx: z.RefinementCtx): void {
  // Keys are numbered by one sequence, as in a single database.
  checkUnique(
    ctx,
    accounts.flatMap(({ index, items }) =>
      (items ?? []).flatMap((k, j) => (k.id === undefined ? [] : [{ value: k.id, path: ["accounts", index, "publicKeys", j, "id"] }])),
    ),
    "public key id",
  );
  for (const account of accounts) checkAccountKeys(account, ctx);
}

function seedKeys(store: Store, account: FixtureAccount, keys: PublicKeyFixture[] | undefined): void {
  for (const key of keys ?? []) {
    // Fixtures were validated, so the key parses; the first user owns keys that name nobody.
    const parsed = parseSshPublicKey(key.publicKey);
    if (!parsed.ok) throw new Error(`fixture public key rejected: publicKey ${parsed.rule}`);
    insertPublicKey(store, {
      id: key.id,
      accountId: account.id,
      userId: key.userId ?? defaultUserId(account),
      name: key.name ?? parsed.key.comment,
      line: key.publicKey,
      key: parsed.key,
    });
  }
}

export const publicKeyFixtures = accountFixtures({
  field: "publicKeys",
  schema: z.array(publicKeySchema).optional(),
  check: checkKeys,
  seed: seedKeys,
});
