/** SSH public keys of the authenticated user: `{base_url}/user/keys` (spec 4.3, facts). */
import { z } from "zod";
import type { ApiRequest } from "../client/http";
import { collection } from "./collection";

export const publicKeyRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  fingerprint: z.string(),
  comment: z
    .string()
    .nullable()
    .transform((c) => c ?? ""),
  created_at: z.string(),
  updated_at: z.string(),
  url: z.string(),
});
export type PublicKeyRecord = z.output<typeof publicKeyRecord>;

/** Keys cannot be changed: there is no update. */
export const publicKeys = collection<typeof publicKeyRecord, { public_key: string; name?: string }>({
  path: "/user/keys",
  record: publicKeyRecord,
  what: "a public key",
});

export const { create: createPublicKey, get: getPublicKey, delete: deletePublicKey } = publicKeys;

/** The first page of the user's keys; follow its `Link` for the rest. */
export const listPublicKeysRequest: ApiRequest = { method: "GET", path: "/user/keys" };
