import { z } from "zod";
import { HOOK_EVENT_IDS, HOOK_TYPES, type HookEvent } from "../../../contract/vocabularies";
import { checkUnique, jsonObject, positiveId, type FixtureAccount } from "../../fixtures/account";
import type { Store } from "../../store";
import { accountFixtures, type AccountItems } from "../area";
import { insertHook } from "./model";
import { SETTINGS_SCHEMAS } from "./settings";

/**
 * `hooks` of an account: `settings` as the API takes them (snake_case, secret ones included),
 * checked by the same rules per type; `salt` may be fixed so a test knows the signature ahead.
 */

const hookSchema = z
  .object({
    id: positiveId.optional(),
    type: z.enum(HOOK_TYPES),
    name: z.string().min(1).optional(),
    active: z.boolean().default(true),
    events: z.array(z.enum(HOOK_EVENT_IDS as [HookEvent, ...HookEvent[]])).min(1),
    settings: jsonObject,
    salt: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex characters")
      .optional(),
  })
  .superRefine((hook, ctx) => {
    const result = SETTINGS_SCHEMAS[hook.type].safeParse(hook.settings);
    for (const issue of result.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: ["settings", ...issue.path], message: issue.message });
    }
  });

type HookFixture = z.output<typeof hookSchema>;

/** Hooks are numbered by one sequence, as in a single database. */
function checkHooks(accounts: readonly AccountItems<HookFixture[]>[], ctx: z.RefinementCtx): void {
  const ids = accounts.flatMap(({ index, items }) =>
    items.flatMap((hook, j) => (hook.id === undefined ? [] : [{ value: hook.id, path: ["accounts", index, "hooks", j, "id"] }])),
  );
  checkUnique(ctx, ids, "hook id");
}

function seedHooks(store: Store, account: FixtureAccount, hooks: HookFixture[]): void {
  for (const hook of hooks) {
    insertHook(store, { ...hook, accountId: account.id, settings: SETTINGS_SCHEMAS[hook.type].parse(hook.settings) });
  }
}

export const hookFixtures = accountFixtures({
  field: "hooks",
  schema: z.array(hookSchema).default([]),
  check: checkHooks,
  seed: seedHooks,
});
