import { resourceClass } from "../shared/resource-class";
import { accountResource } from "./declaration";
import type { AccountArgs, AccountOutputs } from "./fields";

export type { AccountArgs, AccountOutputs } from "./fields";

/** An account of the service with its own API path; see the reference page for Account. */
export const Account = resourceClass<AccountArgs, AccountOutputs>(accountResource);
export type Account = InstanceType<typeof Account>;
