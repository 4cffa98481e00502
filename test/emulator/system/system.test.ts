import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGION_TYPES, STACKS, SYSTEM_VARIABLES, TIME_ZONES } from "../../../contract/catalogues";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import {
  ACCEPT,
  basic,
  call,
  closedAfterEach,
  DANA_KEY,
  expectError,
  LEE_KEY,
  OTHER_ACCOUNT,
  OTHER_KEY,
  readJson,
  startTestEmulator,
  testFixtures,
} from "../helpers";

/**
 * System information (facts, "System information" and "Variables"): regions, time zones and
 * variables at the host root; the account's regions, stacks and rate-limit status below
 * `{base_url}`.
 */

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

function atRoot(path: string, key: string | null = DANA_KEY): Promise<Response> {
  const headers: Record<string, string> = { Accept: ACCEPT };
  if (key !== null) headers.Authorization = basic(key);
  return fetch(`${emulator.url}${path}`, { headers });
}

async function rootJson(path: string): Promise<any> {
  const response = await atRoot(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get("content-type")).toBe(ACCEPT);
  return readJson(response);
}

const REGION_FIELDS = ["group_name", "id", "name", "short_name"];

describe("regions at the host root", () => {
  it("lists every region as {id, name, short_name, group_name}, ids <provider>::<region>", async () => {
    const regions = (await rootJson("/regions")) as Record<string, string>[];
    expect(regions.length).toBeGreaterThan(20);
    for (const region of regions) {
      expect(Object.keys(region).sort()).toEqual(REGION_FIELDS);
      expect(region.id).toMatch(/^[a-z-]+::[A-Za-z0-9-]+$/);
    }
    const ids = regions.map((region) => region.id);
    expect(ids).toEqual(expect.arrayContaining(["amazon-web-services::us-east-1", "gcloud::us-central1", "snowflake::us-east-1", "soft-layer::dal05"]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(regions.find((region) => region.id === "amazon-web-services::us-east-1")).toEqual({
      id: "amazon-web-services::us-east-1",
      name: "AWS US East (N. Virginia)",
      short_name: "us-east-1",
      group_name: "Amazon Web Services",
    });
  });

  it.each(REGION_TYPES)("lists the regions of %s by path and by query alike", async (type) => {
    const byPath = (await rootJson(`/regions/${type}`)) as { id: string }[];
    expect(byPath.length).toBeGreaterThan(0);
    expect(await rootJson(`/regions?type=${type}`)).toEqual(byPath);
    expect(await rootJson(`/regions/${type}?type=${type}`)).toEqual(byPath);
  });

  it("keeps each type to its provider's regions", async () => {
    const providers = async (type: string) => new Set(((await rootJson(`/regions/${type}`)) as { id: string }[]).map((r) => r.id.split("::")[0]));
    expect(await providers("redshift")).toEqual(new Set(["amazon-web-services"]));
    expect(await providers("s3")).toEqual(new Set(["amazon-web-services"]));
    expect(await providers("athena")).toEqual(new Set(["amazon-web-services"]));
    expect(await providers("bigquery")).toEqual(new Set(["gcloud"]));
    expect(await providers("snowflake")).toEqual(new Set(["snowflake"]));
  });

  it.each([["/regions/oracle"], ["/regions?type=oracle"], ["/regions?type="], ["/regions/S3"]])("answers 422 naming the type to %s", async (path) => {
    await expectError(await atRoot(path), 422, "type must be one of redshift, bigquery, s3, snowflake, athena");
  });

  it("answers 422 when the path and the query name different types", async () => {
    await expectError(await atRoot("/regions/s3?type=bigquery"), 422, "type is s3 in the path and bigquery in the query; give one");
  });

  it("needs credentials, like every API path", async () => {
    await expectError(await atRoot("/regions", null), 401);
    await expectError(await atRoot("/timezones", "nobody"), 401);
  });

  it("answers 405 to another method", async () => {
    const response = await fetch(`${emulator.url}/regions/s3`, { method: "DELETE", headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });
    await expectError(response, 405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});

describe("the account's regions and stacks", () => {
  it("lists where clusters can run, as regions", async () => {
    const response = await call(emulator, "/regions");
    expect(response.status).toBe(200);
    const regions = (await readJson(response)) as Record<string, string>[];
    expect(regions.map((region) => region.id)).toEqual(expect.arrayContaining(["amazon-web-services::us-east-1", "gcloud::us-central1"]));
    expect(regions.map((region) => region.id)).not.toContain("snowflake::us-east-1");
    for (const region of regions) expect(Object.keys(region).sort()).toEqual(REGION_FIELDS);
    const other = await call(emulator, "/regions", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(await readJson(other)).toEqual(regions);
  });

  it("lists the stacks as [{id, name}]", async () => {
    const stacks = (await readJson(await call(emulator, "/stacks"))) as { id: string; name: string }[];
    expect(stacks).toEqual(STACKS);
    expect(stacks.map((stack) => stack.id)).toEqual(expect.arrayContaining(["mint-everest", "lime-everest", "blue-everest", "white-everest"]));
  });
});

describe("time zones and variables at the host root", () => {
  it("lists time zones by their friendly names, each shown after its offset", async () => {
    const zones = (await rootJson("/timezones")) as { id: string; name: string }[];
    expect(zones.length).toBeGreaterThanOrEqual(30);
    expect(zones).toEqual(TIME_ZONES.map(({ id, name }) => ({ id, name })));
    expect(zones).toContainEqual({ id: "Pacific Time (US & Canada)", name: "(GMT-08:00) Pacific Time (US & Canada)" });
    expect(zones).toContainEqual({ id: "UTC", name: "(GMT+00:00) UTC" });
    for (const zone of zones) expect(zone.name).toMatch(new RegExp(`^\\(GMT[+-]\\d\\d:\\d\\d\\) ${zone.id.replace(/[()]/g, "\\$&")}$`));
  });

  it("every time zone stands for a zone the runtime knows", () => {
    for (const zone of TIME_ZONES) expect(() => new Intl.DateTimeFormat("en", { timeZone: zone.iana })).not.toThrow();
  });

  it("shows the system variables with their defaults", async () => {
    const variables = await rootJson("/variables");
    expect(variables).toEqual(SYSTEM_VARIABLES);
    expect(Object.keys(variables).sort()).toEqual(
      [
        "_MAX_COMBINED_SPLIT_SIZE",
        "_BYTES_PER_REDUCER",
        "_LINE_RECORD_READER_MAX_LENGTH",
        "_DEFAULT_TIMEZONE",
        "_DEFAULT_PARALLELISM",
        "_SHUFFLE_INPUT_BUFFER_PERCENT",
        "_COPY_PARALLELISM",
        "_COPY_TARGET_PARTITIONS",
        "_COPY_TARGET_SIZE",
        "_PARQUET_COMPRESSION",
        "_PARQUET_PAGE_SIZE",
        "_PARQUET_BLOCK_SIZE",
      ].sort(),
    );
  });
});

describe("rate-limit status", () => {
  const track = closedAfterEach();

  async function status(target: RunningEmulator, key = DANA_KEY): Promise<{ response: Response; body: any }> {
    const response = await call(target, "/rate_limit_status", { key });
    return { response, body: await readJson(response) };
  }

  it("shows the caller's allowance and costs nothing however often it is asked", async () => {
    const fresh = track(await startEmulator({ port: 0, fixtures: testFixtures(), creditsPerHour: 50 }));
    for (let i = 0; i < 60; i++) {
      const { response, body } = await status(fresh);
      expect(response.status).toBe(200);
      expect(body).toEqual({ limits: { limit: 50, remaining: 50 } });
      expect(response.headers.get("x-ratelimit-remaining")).toBe("50");
    }
  });

  it("shows each paid call's credit spent, for the caller only", async () => {
    const fresh = track(await startEmulator({ port: 0, fixtures: testFixtures(), creditsPerHour: 50 }));
    for (let i = 0; i < 3; i++) expect((await call(fresh, "/clusters")).status).toBe(200);
    expect((await call(fresh, "/no-such-path")).status).toBe(404);
    expect((await status(fresh)).body).toEqual({ limits: { limit: 50, remaining: 46 } });
    expect((await status(fresh, LEE_KEY)).body).toEqual({ limits: { limit: 50, remaining: 50 } });
  });

  it("answers when the allowance is used up, while paid calls get 429", async () => {
    const fresh = track(await startEmulator({ port: 0, fixtures: testFixtures(), creditsPerHour: 2 }));
    await call(fresh, "/clusters");
    await call(fresh, "/clusters");
    await expectError(await call(fresh, "/clusters"), 429);
    const { response, body } = await status(fresh);
    expect(response.status).toBe(200);
    expect(body).toEqual({ limits: { limit: 2, remaining: 0 } });
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("needs credentials", async () => {
    await expectError(await call(emulator, "/rate_limit_status", { key: null }), 401);
  });
});
