/**
 * Who the settings' API key belongs to. The service shows a user only what they may see and
 * answers 404 for the rest, so under another user's key an object of the stack looks deleted:
 * kinds that record their user ask this before taking a 404 for a delete.
 *
 * One `GET /user` per settings (kept in their context, context.ts), and none when an object read under them, or
 * their proof (settings-proof.ts), already showed who they are.
 */
import { getCurrentUser, type UserRecord } from "../../api/system";
import type { SettingsUse } from "../../context";

/** The user the settings' API key belongs to, asked once; a failed call is asked again next time. */
export function currentUser({ request, learned }: SettingsUse): Promise<UserRecord> {
  if (learned.user === undefined) {
    const user = getCurrentUser(request);
    learned.user = user;
    user.catch(() => {
      if (learned.user === user) learned.user = undefined;
    });
  }
  return learned.user;
}

export async function currentUserId(settings: SettingsUse): Promise<number> {
  if (settings.learned.userId !== undefined) return settings.learned.userId;
  const { id } = await currentUser(settings);
  settings.learned.userId ??= id;
  return settings.learned.userId;
}

/** An object found under these settings showed whose they are. */
export function noteCurrentUserId(settings: SettingsUse, userId: number | undefined): void {
  settings.learned.userId ??= userId;
}
