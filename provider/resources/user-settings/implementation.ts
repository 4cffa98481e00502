/**
 * UserSettings: the settings of the user the API key belongs to. There is one per user and the
 * service neither makes nor deletes it, so `create` takes the settings over (a PUT of what
 * differs, nothing when nothing does) and `destroy` leaves them as they are. Under another
 * user's API key the resource stops rather than change that user's settings.
 */
import type * as pulumi from "@pulumi/pulumi";
import { getUserSettings, updateUserSettings, type UserSettingsRecord } from "../../api/users";
import type { RequestFn } from "../../client/http";
import type { OperationContext } from "../../context";
import { checkWithSchema } from "../shared/check";
import { ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { tableOperations, type UserSettingsInputs, type UserSettingsOutputs } from "./fields";

/** The settings, when they are the recorded user's: another user's key must not change or show theirs. */
async function settingsOf(request: RequestFn, id: string): Promise<UserSettingsRecord> {
  const record = await getUserSettings(request);
  if (String(record.id) !== id) {
    throw new ResourceFailure(
      `these settings' API key belongs to user ${record.id}, and this resource holds the settings of user ${id}: ` +
        "use that user's API key, or drop the resource from the stack with `pulumi state delete`",
    );
  }
  return record;
}

export async function findUserSettings(request: RequestFn): Promise<UserSettingsRecord[]> {
  return [await getUserSettings(request)];
}

export const userSettingsImplementation = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return checkWithSchema(tableOperations.inputSchema, news);
  },

  async diff(_id: string, olds: UserSettingsOutputs, news: UserSettingsInputs): Promise<pulumi.dynamic.DiffResult> {
    return tableOperations.diff(olds, news);
  },

  async create(ctx: OperationContext, inputs: UserSettingsInputs) {
    const record = await getUserSettings(ctx.request);
    const outs = await tableOperations.updated(tableOperations.outputs(record, {} as UserSettingsInputs), inputs, (body) =>
      updateUserSettings(ctx.request, body),
    );
    return { id: String(record.id), outs };
  },

  async read(ctx: OperationContext, id: string, props: UserSettingsOutputs) {
    return tableOperations.readResult(id, await settingsOf(ctx.request, id), props);
  },

  async update(ctx: OperationContext, id: string, olds: UserSettingsOutputs, news: UserSettingsInputs) {
    await settingsOf(ctx.request, id);
    return { outs: await tableOperations.updated(olds, news, (body) => updateUserSettings(ctx.request, body)) };
  },

  /** The settings stay the user's as they are: there is nothing to delete. */
  async delete(_ctx: OperationContext, _id: string, _props: UserSettingsOutputs): Promise<void> {},
} satisfies ResourceImplementation<UserSettingsInputs, UserSettingsOutputs>;
