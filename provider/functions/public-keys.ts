/** An SSH public key of the API user, read by id (spec 4.3). */
import { z } from "zod";
import { getPublicKey as fetchPublicKey, type PublicKeyRecord } from "../api/public-keys";
import { camelCased, type CamelCased } from "../api/records";
import { programFunction, type FunctionContext } from "./context";
import { parseArguments, recordId } from "./arguments";

export interface GetPublicKeyArgs {
  /** A number, or a string of digits (such as a PublicKey's `id`). */
  keyId: number | string;
}

/** The publickey as the service returns it, with camelCase field names. */
export type PublicKeyInfo = CamelCased<PublicKeyRecord>;

const getPublicKeyArgs = z.strictObject({ keyId: recordId() });

export const getPublicKey = programFunction(async function getPublicKey(ctx: FunctionContext, args: GetPublicKeyArgs): Promise<PublicKeyInfo> {
  const { keyId } = parseArguments("getPublicKey", getPublicKeyArgs, args);
  return camelCased(await fetchPublicKey(ctx.request, keyId));
});
