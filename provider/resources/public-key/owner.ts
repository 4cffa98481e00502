/**
 * Whose a key is. The service shows a user only their own keys (`/user/keys`) and answers 404
 * for another user's, so under another user's API key every key of the stack would look deleted:
 * a refresh would drop them and the next `up` make new ones, leaving the old keys on the service,
 * in no stack, still opening the machines. A key records its user (`userId`), and each operation
 * on it first makes sure the settings still name that user, and stops with what to do if not.
 *
 * Who the settings name costs one `GET /user` per settings (kept in their context), and none when a key read
 * under them already showed it (a key found is the caller's own).
 */
import { getMember } from "../../api/members";
import type { SettingsUse } from "../../context";
import { UserFacingError } from "../../errors";
import type { Reporter } from "../../progress";
import { currentUser, currentUserId, noteCurrentUserId } from "../shared/current-user";

export { currentUserId } from "../shared/current-user";

/** A key found under these settings is theirs: its recorded user is the current one. */
export function noteFoundKeyOwner(settings: SettingsUse, userId: number | undefined): void {
  noteCurrentUserId(settings, userId);
}

/**
 * The user of a key just made, for its outputs. The key exists already: if the service cannot
 * say who the user is now, the key is recorded without, as keys made before `userId` were.
 */
export async function ownerOfNewKey(settings: SettingsUse, report: Reporter): Promise<number | undefined> {
  try {
    return await currentUserId(settings);
  } catch (error) {
    report.note(`public key: could not learn which user the API key belongs to (${(error as Error).message}); the next refresh records it`, "warning");
    return undefined;
  }
}

export class OtherUsersKeyError extends UserFacingError {}

export interface RecordedKey {
  id: string;
  name?: string;
  userId?: number;
}

/**
 * Stops when the settings name another user than the key's. A key recorded with no user (made
 * before keys recorded theirs) passes, with no call. `writing`: the operation would change the
 * stack (an up stops at the first such key, where a refresh names every one).
 */
export async function ensureSameUser(context: () => SettingsUse, key: RecordedKey, writing = false): Promise<void> {
  if (key.userId === undefined) return;
  const settings = context();
  if ((await currentUserId(settings)) === key.userId) return;
  const message = await otherUserMessage(settings, key, key.userId);
  throw new OtherUsersKeyError(writing ? `${message} \`pulumi refresh --run-program\` lists every key of the stack in this case.` : message);
}

async function otherUserMessage(settings: SettingsUse, key: RecordedKey, ownerId: number): Promise<string> {
  const [current, owner] = await Promise.all([currentUser(settings), getMember(settings.request, ownerId).catch(() => undefined)]);
  const ownerText = `user ${ownerId}${owner ? ` (${owner.email})` : ""}`;
  const named = key.name === undefined ? "" : ` "${key.name}"`;
  return (
    `public key ${key.id}${named} belongs to ${ownerText}, but the provider's API key (etl:apiKey) is now user ${current.id}'s (${current.email}), ` +
    `and the service shows a user only their own keys; nothing was changed. ` +
    `To manage the key, set etl:apiKey back to user ${ownerId}'s key; to leave it to user ${ownerId}, remove it from the stack with ` +
    `\`pulumi state delete <its URN>\` (\`pulumi stack --show-urns\` shows it; the next \`up\` then makes a new key for user ${current.id}).`
  );
}
