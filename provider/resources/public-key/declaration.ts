import { declareResource } from "../shared/declaration";
import { publicKeyExport } from "./export";
import { fields, publicKeyState } from "./fields";
import { publicKeyProvider } from "./provider";
import { publicKeyRecover } from "./recover";

export const publicKeyResource = declareResource({
  kind: "PublicKey",
  description: "An SSH public key of the API user, used to reach cluster machines. The service holds a key once, so a replacement deletes the old key first.",
  provider: publicKeyProvider,
  recover: publicKeyRecover,
  export: publicKeyExport,
  fields,
  record: publicKeyState,
  secrets: [],
  deleteBeforeReplace: true,
  example: { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH deploy@ci", name: "deploy key" },
});
