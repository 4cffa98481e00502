import type { AccountFixture } from "../fixtures";
import { parseSshPublicKey } from "../../contract/ssh-public-key";
import { defineTable, type Row, type Store } from "../store";

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

export function seedPublicKeys(store: Store, account: AccountFixture): void {
  const now = new Date(store.clock.now()).toISOString();
  for (const key of account.publicKeys ?? []) {
    // Fixtures were validated, so the key parses; the first user owns keys that name nobody.
    const parsed = parseSshPublicKey(key.publicKey);
    if (!parsed.ok) throw new Error(`fixture public key rejected: publicKey ${parsed.rule}`);
    store.insert(PUBLIC_KEYS, {
      id: key.id,
      accountId: account.id,
      userId: key.userId ?? account.users[0]!.id,
      name: key.name ?? parsed.key.comment,
      publicKey: key.publicKey.trim(),
      fingerprint: parsed.key.fingerprint,
      comment: parsed.key.comment,
      createdAt: now,
      updatedAt: now,
    });
  }
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
