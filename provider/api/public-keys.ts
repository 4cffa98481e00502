/** SSH public keys of the authenticated user: `{base_url}/user/keys` (spec 4.3, facts). */
import { z } from "zod";
import type { ApiRequest, RequestFn } from "../client/http";
import { parseRecord } from "./records";

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

const keyPath = (id: string | number) => `/user/keys/${encodeURIComponent(String(id))}`;

export async function createPublicKey(request: RequestFn, body: { public_key: string; name?: string }): Promise<PublicKeyRecord> {
  const response = await request({ method: "POST", path: "/user/keys", body });
  return parseRecord(publicKeyRecord, response.body, "a public key");
}

export async function getPublicKey(request: RequestFn, id: string | number): Promise<PublicKeyRecord> {
  const response = await request({ method: "GET", path: keyPath(id) });
  return parseRecord(publicKeyRecord, response.body, "a public key");
}

export async function deletePublicKey(request: RequestFn, id: string | number): Promise<void> {
  await request({ method: "DELETE", path: keyPath(id) });
}

/** The first page of the user's keys; follow its `Link` for the rest. */
export const listPublicKeysRequest: ApiRequest = { method: "GET", path: "/user/keys" };
