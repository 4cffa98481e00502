import { resourceClass } from "../shared/resource-class";
import { publicKeyResource } from "./declaration";
import type { PublicKeyArgs, PublicKeyOutputs } from "./fields";

export type { PublicKeyArgs, PublicKeyOutputs } from "./fields";

/**
 * An SSH public key of the API user. `deleteBeforeReplace` defaults to true: the service holds a
 * key once, and a forced replacement (`--replace`, for which the engine asks the provider
 * nothing) keeps the key. Options given here win.
 */
export const PublicKey = resourceClass<PublicKeyArgs, PublicKeyOutputs>(publicKeyResource);
export type PublicKey = InstanceType<typeof PublicKey>;
