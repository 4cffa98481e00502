import type { SshPublicKey } from "../../../contract/ssh-public-key";
import { isoTime } from "../../clock";
import { defineTable, type NewRowPlace, type Row, type Store } from "../../store";

/** SSH public keys: each belongs to one user within one account. */
export interface PublicKeyRow extends Row {
  userId: number;
  name: string;
  publicKey: string;
  fingerprint: string;
  comment: string;
  createdAt: string;
  updatedAt: string;
}

export const PUBLIC_KEYS = defineTable<PublicKeyRow>("publicKeys");

/** A user's keys, by id ascending. */
export function keysOfUser(store: Store, accountId: number, userId: number): PublicKeyRow[] {
  return store.list(PUBLIC_KEYS, accountId).filter((key) => key.userId === userId);
}

export function findKeyOfUser(store: Store, accountId: number, userId: number, id: number): PublicKeyRow | undefined {
  const key = store.find(PUBLIC_KEYS, accountId, id);
  return key?.userId === userId ? key : undefined;
}

export interface NewPublicKey extends NewRowPlace {
  userId: number;
  name: string;
  /** The line as given, which the row keeps trimmed. */
  line: string;
  key: SshPublicKey;
}

export function insertPublicKey(store: Store, fields: NewPublicKey): PublicKeyRow {
  const now = isoTime(store.clock.now());
  return store.insert(PUBLIC_KEYS, {
    id: fields.id,
    accountId: fields.accountId,
    userId: fields.userId,
    name: fields.name,
    publicKey: fields.line.trim(),
    fingerprint: fields.key.fingerprint,
    comment: fields.key.comment,
    createdAt: now,
    updatedAt: now,
  });
}

/** The service's JSON for a key (spec section 2.5); the key material itself is not echoed. */
export function publicKeyJson(key: PublicKeyRow, baseUrl: string): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    fingerprint: key.fingerprint,
    comment: key.comment,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
    url: `${baseUrl}/user/keys/${key.id}`,
  };
}
