/**
 * Exporting public keys: the service keeps a key's fingerprint and comment, never its line, so
 * the program reads each line from the stack's configuration (the `.pub` file's content).
 */
import { publicKeyRecord, type PublicKeyRecord } from "../../api/public-keys";
import type { ExportDeclaration } from "../shared/exported";

export const publicKeyExport: ExportDeclaration<PublicKeyRecord> = {
  listing: { method: "GET", path: "/user/keys", query: { limit: 100 } },
  item: publicKeyRecord,
  name: (key) => key.name,
  inputs: (inputs, _key, context) => ({ publicKey: context.setting("keyLine"), ...inputs }),
};
