import { declareResource } from "../shared/declaration";
import { publicKeyExport } from "./export";
import { tableOperations, publicKeyState } from "./fields";
import { publicKeyImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdKey } from "./implementation";

/** Recovering public keys: the user holds a key once, so its fingerprint names it. */
const publicKeyRecover: RecoverDeclaration = { by: "its fingerprint", find: createdKey.find };

export const publicKeyDeclaration = declareResource({
  kind: "PublicKey",
  description: "An SSH public key of the API user, used to reach cluster machines. The service holds a key once, so a replacement deletes the old key first.",
  notes: [
    "The API cannot change keys, so any change replaces the key. The service refuses the same key twice, so a replacement deletes the old key first (`deleteBeforeReplace` defaults to true for this resource on the dynamic resources; the engine asks the provider nothing on `pulumi up --replace`, so the option is what decides, and on the plugin you set it yourself: without it a replacement fails saying so, and changes nothing). The key is kept normalized; `fingerprint` is the MD5 fingerprint, 16 lowercase hex bytes joined by colons. A private key pasted by mistake is refused without being echoed.",
    "",
    "A key belongs to the user whose API key made it, and the service shows each user only their own keys: under another user's API key every key of the stack would look deleted. So a key records its user (`userId`, learned with one `GET /user` per provider process, also during an unchanged preview, or from the provider's check of its settings when the key is the owner's of `etl:accountId`), and when `etl:apiKey` is now another user's, `refresh`, `preview` and `up` stop with a message naming the key and both users, changing nothing. Set `etl:apiKey` back to the key's user's API key to manage it, or leave the key to that user with `pulumi state delete <urn>`; the next `up` makes a new key for the new user. A key in a stack written before `userId` existed learns its user at the next refresh.",
  ],
  implementation: publicKeyImplementation,
  recover: publicKeyRecover,
  export: publicKeyExport,
  tableOperations,
  record: publicKeyState,
  secrets: [],
  deleteBeforeReplace: true,
  example: { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH deploy@ci", name: "deploy key" },
});

export type { PublicKeyArgs, PublicKeyOutputs } from "./fields";
