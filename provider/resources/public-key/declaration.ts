import { declareResource } from "../shared/declaration";
import { publicKeyExport } from "./export";
import { fields, publicKeyState } from "./fields";
import { publicKeyProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedKey } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { PublicKeyArgs, PublicKeyOutputs } from "./fields";

/** Recovering public keys: the user holds a key once, so its fingerprint names it. */
const publicKeyRecover: RecoverDeclaration = { by: "its fingerprint", find: findCreatedKey };

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

export type { PublicKeyArgs, PublicKeyOutputs } from "./fields";

/**
 * An SSH public key of the API user. `deleteBeforeReplace` defaults to true: the service holds a
 * key once, and a forced replacement (`--replace`, for which the engine asks the provider
 * nothing) keeps the key. Options given here win.
 */
export const PublicKey = resourceClass<PublicKeyArgs, PublicKeyOutputs>(publicKeyResource);
export type PublicKey = InstanceType<typeof PublicKey>;
