import { managedAccountRecord } from "../../api/accounts";
import { declareResource } from "../shared/declaration";
import { tableOperations } from "./fields";
import { accountImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdAccount } from "./implementation";

/** Recovering accounts: one made since the create was sent, owned by the caller, with the name and region asked for. */
const accountRecover: RecoverDeclaration = { by: "its name and region", find: createdAccount.find };

export const accountDeclaration = declareResource({
  kind: "Account",
  description:
    "An account of the service, with its own API path (`slug`) and its own objects: what a platform team makes per environment, then points an explicit provider at (`accountId: account.slug`). Its creator owns it; only the owner can delete it, and deleting it deletes everything in it.",
  summary: "An account of the service, with its own API path and objects: one per environment, reached through an explicit provider.",
  notes: [
    "What a platform team makes per environment, then points an explicit provider at, so the environment's objects are made inside it (explicit providers are a plugin feature: the dynamic resources take their account from the stack's `etl:accountId`):",
    "",
    "```python",
    "import pulumi",
    "import pulumi_etl as etl",
    "",
    'settings = pulumi.Config("etl")',
    'staging = etl.Account("staging", name="analytics staging", region="amazon-web-services::us-east-1", slug="analytics-staging")',
    'in_staging = etl.Provider("in-staging", api_url=settings.require("apiUrl"), api_key=settings.require_secret("apiKey"), account_id=staging.slug)',
    'warehouse = etl.Connection("warehouse", type="s3", name="landing", username="AKIAEXAMPLE", password=pulumi.Config().require_secret("bucketSecretKey"),',
    "                           opts=pulumi.ResourceOptions(provider=in_staging))",
    "```",
    "",
    "Its creator owns it, and the same API key reaches it at once. `name`, `region`, `location`, `billingEmail` and `gravatarEmail` update in place; a new `slug` renames the account (its API path moves: every provider pointed at it must follow, which `account_id=staging.slug` does). At the preview of an account's making or renaming its `slug` is not known until `up`, so a provider following it is not configured yet (the engine says its inputs are not known during preview) and proves its settings at `up`, once the account has that slug.",
    "",
    "The Pulumi id is the account's number (output `number`), which a rename keeps, so an account renamed outside Pulumi is found again by `refresh`, and by `destroy` (a delete's 404 is confirmed by number, so the account is deleted at its new slug, never reported deleted while it stays).",
    "",
    "The account records the user whose key reached it (`userId`): the service answers 404 to a non-member as for an account that does not exist, so under the key of a user who cannot see it `refresh`, `preview`, `up` and `destroy` stop, naming both users and what to do, rather than drop it from the state or make a second one; an unchanged preview asks once who the key's user is (`GET /user`), unless the provider's check of its settings already learnt it (the key of the owner of `etl:accountId`). Only the owner can delete an account, and deleting it deletes everything in it; destroying one the caller does not own fails before any call. An `Account` has no listing to read from: each account is one GET at refresh. [examples/account-per-environment](../../../examples/account-per-environment) makes a staging account and a connection inside it.",
  ],
  implementation: accountImplementation,
  recover: accountRecover,
  export: { runtime: "the account itself: an exported program reaches it through its provider's accountId, not as a resource inside it" },
  tableOperations,
  record: managedAccountRecord,
  secrets: [],
  unknownAtPreview: ["slug"],
  example: { name: "analytics staging", region: "amazon-web-services::us-east-1", location: "Amsterdam" },
});

export type { AccountArgs, AccountOutputs } from "./fields";
