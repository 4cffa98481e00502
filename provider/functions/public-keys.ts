/** An SSH public key of the API user, read by id (spec 4.3). */
import { z } from "zod";
import { getPublicKey as fetchPublicKey, type PublicKeyRecord } from "../api/public-keys";
import { programRequest } from "../context";
import { parseArguments, recordId } from "./arguments";

export interface GetPublicKeyArgs {
  /** A number, or a string of digits (such as a PublicKey's `id`). */
  keyId: number | string;
}

export interface PublicKeyInfo {
  id: number;
  name: string;
  fingerprint: string;
  comment: string;
  createdAt: string;
  updatedAt: string;
  url: string;
}

const getPublicKeyArgs = z.strictObject({ keyId: recordId() });

export async function getPublicKey(args: GetPublicKeyArgs): Promise<PublicKeyInfo> {
  const { keyId } = parseArguments("getPublicKey", getPublicKeyArgs, args);
  return publicKeyInfoOf(await fetchPublicKey(programRequest(), keyId));
}

function publicKeyInfoOf(record: PublicKeyRecord): PublicKeyInfo {
  return {
    id: record.id,
    name: record.name,
    fingerprint: record.fingerprint,
    comment: record.comment,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    url: record.url,
  };
}
