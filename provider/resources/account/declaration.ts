import { managedAccountRecord } from "../../api/accounts";
import { declareResource } from "../shared/declaration";
import { fields } from "./fields";
import { accountProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedAccount } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { AccountArgs, AccountOutputs } from "./fields";

/** Recovering accounts: one made since the create was sent, owned by the caller, with the name and region asked for. */
const accountRecover: RecoverDeclaration = { by: "its name and region", find: findCreatedAccount };

export const accountResource = declareResource({
  kind: "Account",
  description:
    "An account of the service, with its own API path (`slug`) and its own objects: what a platform team makes per environment, then points an explicit provider at (`accountId: account.slug`). Its creator owns it; only the owner can delete it, and deleting it deletes everything in it.",
  provider: accountProvider,
  recover: accountRecover,
  export: { runtime: "the account itself: an exported program reaches it through its provider's accountId, not as a resource inside it" },
  fields,
  record: managedAccountRecord,
  secrets: [],
  example: { name: "analytics staging", region: "amazon-web-services::us-east-1", location: "Amsterdam" },
});

export type { AccountArgs, AccountOutputs } from "./fields";

/** An account of the service with its own API path; see the reference page for Account. */
export const Account = resourceClass<AccountArgs, AccountOutputs>(accountResource);
export type Account = InstanceType<typeof Account>;
