import { HOOK_SIGNATURE_HEADER, hookSignature } from "../../../contract/hook-signature";
import type { HookEvent } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import type { Store } from "../../store";
import { accountById } from "../accounts/interface";
import { deliveriesOf, type DeliveryRecord } from "./deliveries";
import { messageFor } from "./messages";
import { covers, HOOKS, recordTrigger, type HookRow } from "./model";
import { changeNotification, eventOf, pingNotification, type Notification, type StatusChange } from "./notification";
import { postJson, type PostOutcome } from "./send";

/**
 * Hooks told of what happens: a job's or cluster's status change reaches every active hook of
 * its account whose events cover it; a ping reaches its one hook. Web hooks get an HTTP POST,
 * made after the change and its request are done with, so a receiver never slows the service;
 * the other types record what they would have sent. Each outcome is kept on the hook's events
 * (`last_trigger_*`, shown by ping) and in the delivery log.
 */

/**
 * The hook's events that answer to `event` (`job` and `job.failed` both answer to `job.failed`).
 * None answers to a ping: the events' outcomes are those of real events, which ping shows.
 */
function answering(hook: HookRow, event: HookEvent | "ping"): HookEvent[] {
  return event === "ping" ? [] : hook.events.filter((subscribed) => covers(subscribed, event));
}

/** Sent as basic authentication when the hook asks for it: the stored value is already base64. */
function authorization(hook: HookRow): Record<string, string> {
  const data = hook.secrets.basic_auth_data;
  return hook.settings.basic_auth === true && data !== undefined ? { Authorization: `Basic ${data}` } : {};
}

function webHeaders(hook: HookRow, notification: Notification): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "User-Agent": "etl-emulator-hooks",
    "X-Hook-Event": notification.event,
    [HOOK_SIGNATURE_HEADER]: hookSignature(hook.salt, { hook_id: hook.id, event: notification.event, url: String(hook.settings.url) }),
  };
}

/** The log never shows a credential. */
function masked(headers: Record<string, string>): Record<string, string> {
  return headers.Authorization === undefined ? headers : { ...headers, Authorization: "Basic [masked]" };
}

function settle(store: Store, hook: HookRow, record: DeliveryRecord, answered: readonly HookEvent[], outcome: PostOutcome, sentAt: string): void {
  const succeeded = outcome.response !== null && outcome.response.status >= 200 && outcome.response.status < 300;
  Object.assign(record, {
    status: succeeded ? "success" : "failure",
    response: outcome.response,
    error: outcome.error,
    finishedAt: isoTime(store.clock.now()),
  });
  const response = outcome.response ?? { error: outcome.error };
  recordTrigger(store, hook, answered, { status: succeeded ? "success" : "failure", time: sentAt, response });
}

/** A record of the delivery, in its first state. */
function newRecord(hook: HookRow, notification: Notification): Omit<DeliveryRecord, "id"> {
  return {
    account: notification.account_id,
    hookId: hook.id,
    hookType: hook.type,
    event: notification.event,
    triggeredAt: notification.triggered_at,
    status: "pending",
    request: null,
    message: null,
    response: null,
    error: null,
    finishedAt: null,
  };
}

/** Queues the POST, made from the hook as it is now; its outcome is recorded when it is over. */
function deliverOverHttp(store: Store, hook: HookRow, notification: Notification, answered: readonly HookEvent[]): void {
  const deliveries = deliveriesOf(store);
  const headers = { ...webHeaders(hook, notification), ...authorization(hook) };
  const post = { url: String(hook.settings.url), headers, body: JSON.stringify(notification), insecureSsl: hook.settings.insecure_ssl === true };
  const record = deliveries.add({ ...newRecord(hook, notification), request: { method: "POST", url: post.url, headers: masked(headers), body: notification } });
  const queued = deliveries.enqueue(hook.id, async () => {
    const sentAt = isoTime(store.clock.now());
    settle(store, hook, record, answered, await postJson({ ...post, timeoutMs: deliveries.timeoutMs }), sentAt);
  });
  if (!queued) settle(store, hook, record, answered, { response: null, error: "too many deliveries waiting" }, isoTime(store.clock.now()));
}

/** Other types reach no real service: what they would send is recorded, and counts as delivered. */
function recordMessage(store: Store, hook: HookRow, notification: Notification, answered: readonly HookEvent[]): void {
  const now = isoTime(store.clock.now());
  deliveriesOf(store).add({ ...newRecord(hook, notification), status: "success", message: messageFor(hook, notification), finishedAt: now });
  recordTrigger(store, hook, answered, { status: "success", time: now, response: { recorded: true } });
}

function deliver(store: Store, hook: HookRow, notification: Notification): void {
  const answered = answering(hook, notification.event);
  if (hook.type === "web") deliverOverHttp(store, hook, notification, answered);
  else recordMessage(store, hook, notification, answered);
}

function accountUid(store: Store, accountId: number): string {
  return accountById(store, accountId)?.uid ?? "";
}

/** The status listener: tells the account's active hooks whose events cover the change. */
export function notifyHooks(store: Store, change: StatusChange): void {
  const event = eventOf(change);
  if (event === undefined) return;
  const hooks = store.list(HOOKS, change.row.accountId).filter((hook) => hook.active && answering(hook, event).length > 0);
  for (const hook of hooks) deliver(store, hook, changeNotification(hook, accountUid(store, hook.accountId), event, change));
}

/** Sends the hook a test notification, active or not, after its earlier deliveries; the delivery log has its outcome. */
export function pingHook(store: Store, hook: HookRow): void {
  deliver(store, hook, pingNotification(hook, accountUid(store, hook.accountId), store.clock.now()));
}
