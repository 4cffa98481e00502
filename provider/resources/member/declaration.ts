import { memberRecord } from "../../api/members";
import { declareResource } from "../shared/declaration";
import { memberExport } from "./export";
import { fields } from "./fields";
import { memberProvider } from "./provider";
import { memberRecover } from "./recover";

export const memberResource = declareResource({
  kind: "Member",
  description: "A person's membership of the account, with a role. A replacement removes the old membership first: the account holds an email once.",
  provider: memberProvider,
  recover: memberRecover,
  export: memberExport,
  fields,
  record: memberRecord,
  secrets: [],
  deleteBeforeReplace: true,
  example: { email: "ana@example.com", role: "admin" },
});
