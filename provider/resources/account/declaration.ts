import { managedAccountRecord } from "../../api/accounts";
import { declareResource } from "../shared/declaration";
import { fields } from "./fields";
import { accountProvider } from "./provider";
import { accountRecover } from "./recover";

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
