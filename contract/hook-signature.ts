import { createHash, timingSafeEqual } from "node:crypto";

/**
 * How a web hook's notification is signed (facts, "Signature / salt handling"): the
 * `X-Hook-Signature` header is the SHA-1, in lowercase hex, of the hook's id, the event name, the
 * hook's `url` and its `salt`, concatenated in that order with no separator. The facts leave the
 * separator and "which id" open; these are the emulator's choices, kept here so that the
 * service, the provider, a test or a receiver compute it with the same code. Every part is in the
 * notification's JSON body (`hook_id`, `event`, `url`) except the salt, which the receiver holds.
 */

export const HOOK_SIGNATURE_HEADER = "X-Hook-Signature";

/** The parts of a notification's body that the signature covers. */
export interface SignedNotification {
  hook_id: number;
  event: string;
  url: string;
}

export function hookSignature(salt: string, notification: SignedNotification): string {
  const text = `${notification.hook_id}${notification.event}${notification.url}${salt}`;
  return createHash("sha1").update(text, "utf8").digest("hex");
}

/** Compares in constant time, so a receiver does not reveal how much of a forged signature matched. */
export function isValidHookSignature(signature: string, salt: string, notification: SignedNotification): boolean {
  const expected = Buffer.from(hookSignature(salt, notification), "utf8");
  const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
