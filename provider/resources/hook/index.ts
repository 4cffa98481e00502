import { resourceClass } from "../shared/resource-class";
import { hookResource } from "./declaration";
import type { HookArgs, HookOutputs } from "./fields";

export type { HookArgs, HookOutputs } from "./fields";
export type { HookSettingsArgs, WebHookSettingsArgs } from "./settings";

/**
 * Tells a web address, Slack, email, HipChat or PagerDuty of job and cluster events. `settings`
 * (which hold passwords and keys) and `salt` (which signs web deliveries) are stored encrypted.
 */
export const Hook = resourceClass<HookArgs, HookOutputs>(hookResource);
export type Hook = InstanceType<typeof Hook>;
