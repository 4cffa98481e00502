import { EVENT_NAMES, type HookRow } from "./model";
import type { Notification } from "./notification";
import { emailAddresses } from "./settings";

/**
 * What a slack, email, hipchat or pagerduty hook would send. The emulator reaches none of
 * those services: it records the message (`/_emulator/hook-deliveries`) instead, without the
 * secret settings that would address or authorise it.
 */

/** One line for people: "Job 12: Job failed (acme-data)". */
export function summaryOf(notification: Notification): string {
  if (notification.event === "ping") return `Ping for hook ${notification.hook_id} (${notification.account_id})`;
  const kind = notification.object_type === "job" ? "Job" : "Cluster";
  return `${kind} ${String(notification.object.id)}: ${EVENT_NAMES.get(notification.event)} (${notification.account_id})`;
}

export function messageFor(hook: HookRow, notification: Notification): Record<string, unknown> {
  const text = summaryOf(notification);
  const { settings } = hook;
  switch (hook.type) {
    case "slack":
      return { team: settings.team, channel: settings.channel, username: settings.username, text };
    case "email":
      return { to: emailAddresses(String(settings.emails)), subject: text, body: JSON.stringify(notification, null, 2) };
    case "hipchat":
      return { room: settings.room, message: text, notify: true };
    case "pagerduty":
      return { pd_account: settings.pd_account, service_name: settings.service_name, event_type: "trigger", description: text, details: notification };
    case "web":
      return { ...notification };
  }
}
