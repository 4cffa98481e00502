import type { ValidFixtures } from "./fixtures";
import { parseSshPublicKey } from "./ssh-key";

/**
 * In-memory state of the emulator. Records are plain objects; routes turn them into the
 * service's JSON, so the store knows nothing about URLs or response shapes.
 */

export interface UserRecord {
  id: number;
  accountId: number;
  name: string;
  email: string;
  apiKey: string;
}

export interface AccountRecord {
  id: number;
  uid: string;
  users: UserRecord[];
}

export interface PublicKeyRecord {
  id: number;
  accountId: number;
  userId: number;
  name: string;
  publicKey: string;
  fingerprint: string;
  comment: string;
  createdAt: Date;
  updatedAt: Date;
}

export type NewPublicKey = Omit<PublicKeyRecord, "id" | "createdAt" | "updatedAt">;

export class Store {
  private readonly accountsByUid = new Map<string, AccountRecord>();
  /** Keys of each account by id; ids come from one sequence, as in a single database. */
  private readonly publicKeysByAccount = new Map<number, Map<number, PublicKeyRecord>>();
  private nextPublicKeyId = 1;

  constructor(
    fixtures: ValidFixtures,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.nextPublicKeyId = 1 + Math.max(0, ...fixtures.accounts.flatMap((a) => (a.publicKeys ?? []).map((k) => k.id ?? 0)));
    for (const account of fixtures.accounts) {
      this.loadAccount(account);
    }
  }

  private loadAccount(account: ValidFixtures["accounts"][number]): void {
    const users = account.users.map((u) => ({ ...u, accountId: account.id }));
    this.accountsByUid.set(account.uid, { id: account.id, uid: account.uid, users });
    this.publicKeysByAccount.set(account.id, new Map());
    for (const key of account.publicKeys ?? []) {
      // Fixtures were validated, so the key parses; the first user owns keys that name nobody.
      const parsed = parseSshPublicKey(key.publicKey);
      if (!parsed.ok) throw new Error(`fixture public key rejected: ${parsed.reason}`);
      this.insertPublicKey(
        {
          accountId: account.id,
          userId: key.userId ?? users[0]!.id,
          name: key.name ?? parsed.comment,
          publicKey: key.publicKey.trim(),
          fingerprint: parsed.fingerprint,
          comment: parsed.comment,
        },
        key.id,
      );
    }
  }

  accounts(): AccountRecord[] {
    return [...this.accountsByUid.values()];
  }

  accountByUid(uid: string): AccountRecord | undefined {
    return this.accountsByUid.get(uid);
  }

  users(): UserRecord[] {
    return this.accounts().flatMap((a) => a.users);
  }

  /** Every key of the account, by id ascending. */
  publicKeysOfAccount(accountId: number): PublicKeyRecord[] {
    const keys = [...(this.publicKeysByAccount.get(accountId)?.values() ?? [])];
    return keys.sort((a, b) => a.id - b.id);
  }

  /** A user's keys, by id ascending. */
  publicKeysOfUser(accountId: number, userId: number): PublicKeyRecord[] {
    return this.publicKeysOfAccount(accountId).filter((k) => k.userId === userId);
  }

  findPublicKey(accountId: number, userId: number, id: number): PublicKeyRecord | undefined {
    const key = this.publicKeysByAccount.get(accountId)?.get(id);
    return key?.userId === userId ? key : undefined;
  }

  addPublicKey(fields: NewPublicKey): PublicKeyRecord {
    return this.insertPublicKey(fields, undefined);
  }

  deletePublicKey(accountId: number, userId: number, id: number): PublicKeyRecord | undefined {
    const key = this.findPublicKey(accountId, userId, id);
    if (key !== undefined) this.publicKeysByAccount.get(accountId)?.delete(id);
    return key;
  }

  private insertPublicKey(fields: NewPublicKey, id: number | undefined): PublicKeyRecord {
    const keys = this.publicKeysByAccount.get(fields.accountId);
    if (keys === undefined) throw new Error(`no account with id ${fields.accountId}`);
    const time = this.now();
    const record: PublicKeyRecord = {
      ...fields,
      id: id ?? this.nextPublicKeyId++,
      createdAt: time,
      updatedAt: time,
    };
    keys.set(record.id, record);
    return record;
  }
}
