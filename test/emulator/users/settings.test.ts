import { describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  call,
  closedAfterEach,
  dataDirsRemovedAfterAll,
  expectError,
  expectOnlyFields,
  LEE_KEY,
  readJson,
  rootCall,
  startTestEmulator,
  testFixtures,
} from "../helpers";

/** The user the API key names, read and changed at the host root (facts, "Users"). */

const USER_FIELDS = [
  "id",
  "name",
  "email",
  "gravatar_email",
  "avatar_url",
  "location",
  "time_zone",
  "time_zone_info",
  "confirmed",
  "confirmed_at",
  "notifications_count",
  "unread_notifications_count",
  "notification_settings",
  "receive_newsletter",
  "last_login",
  "created_at",
  "updated_at",
  "url",
];
const PASSWORDS = { current_password: "old-secret-1", new_password: "new-secret-2" };

const started = closedAfterEach();

async function start(): Promise<RunningEmulator> {
  return started(await startTestEmulator());
}

async function ok(response: Response): Promise<any> {
  expect(response.status).toBe(200);
  return readJson(response);
}

function changeUser(emulator: RunningEmulator, body: unknown, key?: string): Promise<Response> {
  return rootCall(emulator, "/user", { method: "PUT", body, key });
}

describe("GET /user", () => {
  it("shows a user who changed nothing with the defaults, and never an API key", async () => {
    const emulator = await start();
    const user = await ok(await rootCall(emulator, "/user"));
    expectOnlyFields(user, USER_FIELDS);
    expect(user).toMatchObject({
      id: 1,
      email: "dana@example.com",
      gravatar_email: "dana@example.com",
      location: null,
      time_zone: "UTC",
      time_zone_info: { name: "UTC", identifier: "Etc/UTC", offset: "+0000" },
      notification_settings: { email: true, web: true },
      receive_newsletter: false,
    });
  });
});

describe("PUT /user", () => {
  it("changes the profile and settings, which GET then shows; passwords are taken and never shown", async () => {
    const emulator = await start();
    const before = await ok(await rootCall(emulator, "/user"));
    const changes = {
      name: "Dana Renamed",
      email: "dana@example.org",
      location: "Vancouver",
      gravatar_email: "face@example.org",
      time_zone: "Pacific Time (US & Canada)",
      receive_newsletter: true,
      notification_settings: { web: false },
    };
    const response = await changeUser(emulator, { ...changes, ...PASSWORDS });
    const text = await response.clone().text();
    for (const secret of Object.values(PASSWORDS)) expect(text).not.toContain(secret);
    const changed = await ok(response);
    expectOnlyFields(changed, USER_FIELDS);
    expect(changed).toMatchObject({
      ...changes,
      time_zone_info: { name: "Pacific Time (US & Canada)", identifier: "America/Los_Angeles", offset: "-0800" },
      notification_settings: { email: true, web: false },
      created_at: before.created_at,
    });
    expect(changed.avatar_url).not.toBe(before.avatar_url);
    expect(changed.updated_at >= before.updated_at).toBe(true);
    expect(await ok(await rootCall(emulator, "/user"))).toEqual(changed);
    const channels = await ok(await changeUser(emulator, { notification_settings: { email: "0" }, time_zone: "New Delhi" }));
    expect(channels.notification_settings).toEqual({ email: false, web: false });
    expect(channels.time_zone_info).toEqual({ name: "New Delhi", identifier: "Asia/Kolkata", offset: "+0530" });
    expect(channels).toMatchObject({ name: "Dana Renamed", location: "Vancouver", receive_newsletter: true });
  });

  it("shows the new profile on the user's member record, and leaves other users alone", async () => {
    const emulator = await start();
    await ok(await changeUser(emulator, { location: "Lima", gravatar_email: "face@example.org", time_zone: "Tokyo" }));
    expect(await ok(await call(emulator, "/members/1"))).toMatchObject({ location: "Lima", gravatar_email: "face@example.org" });
    expect(await ok(await rootCall(emulator, "/user", { key: LEE_KEY }))).toMatchObject({
      location: null,
      time_zone: "UTC",
      gravatar_email: "lee@example.com",
    });
    const cleared = await ok(await changeUser(emulator, { location: null, gravatar_email: null }));
    expect(cleared).toMatchObject({ location: null, gravatar_email: "dana@example.com", time_zone: "Tokyo" });
  });

  it("answers 422 naming the field and the rule, and changes nothing", async () => {
    const emulator = await start();
    const before = await ok(await rootCall(emulator, "/user"));
    await expectError(await changeUser(emulator, { time_zone: "Mars/Olympus" }), 422, "time_zone must be a time zone id of GET /timezones, e.g. UTC");
    await expectError(await changeUser(emulator, { time_zone: "Etc/UTC" }), 422, /^time_zone must be a time zone id/);
    await expectError(await changeUser(emulator, { notification_settings: { email: "yes" } }), 422, /^notification_settings\.email must be a boolean/);
    await expectError(await changeUser(emulator, { notification_settings: { sms: true } }), 422, "notification_settings.sms is not a known field");
    await expectError(await changeUser(emulator, { receive_newsletter: "maybe" }), 422, /^receive_newsletter must be a boolean/);
    await expectError(await changeUser(emulator, { email: "nope" }), 422, "email must be an email address");
    await expectError(await changeUser(emulator, { email: "LEE@example.com" }), 422, "email LEE@example.com is already another user's");
    await expectError(await changeUser(emulator, { name: "", location: 3 }), 422, "name must not be blank; location must be a string or null");
    await expectError(await changeUser(emulator, { api_key: "mine" }), 422, "api_key is not a known field");
    expect(await ok(await rootCall(emulator, "/user"))).toEqual(before);
  });
});

describe("user settings across a restart", () => {
  const newDataDir = dataDirsRemovedAfterAll("etl-user-");

  it("keeps what the user changed", async () => {
    const dataDir = newDataDir();
    const first = await startEmulator({ dataDir, fixtures: testFixtures() });
    const body = { name: "Dana Kept", time_zone: "Berlin", receive_newsletter: true, notification_settings: { email: false } };
    // The url holds the port, which a restart on port 0 changes.
    const { url: _, ...changed } = await ok(await changeUser(first, body));
    await first.close();
    const second = started(await startEmulator({ dataDir, fixtures: testFixtures() }));
    expect(second.restored).toBe(true);
    expect(await ok(await rootCall(second, "/user"))).toEqual({ ...changed, url: `${second.url}/user` });
    expect(changed).toMatchObject({ ...body, notification_settings: { email: false, web: true } });
  });
});
