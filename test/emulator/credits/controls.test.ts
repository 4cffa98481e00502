import { describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { CreditLedger } from "../../../emulator/credits";
import { call, closedAfterEach, control, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures } from "../helpers";

/** `/_emulator/credits`: reading, using up and renewing the hourly allowance of each user. */

const closeLater = closedAfterEach();

async function start(creditsPerHour = 10): Promise<RunningEmulator> {
  return closeLater(await startEmulator({ fixtures: testFixtures(), creditsPerHour }));
}

function credits(running: RunningEmulator, method = "GET", body?: unknown): Promise<Response> {
  return control(running, "/credits", method, body);
}

async function windows(running: RunningEmulator): Promise<any[]> {
  const response = await credits(running);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  return readJson(response);
}

describe("GET /_emulator/credits", () => {
  it("lists every user's current window, full before any call, and charges nothing", async () => {
    const running = await start(10);
    await call(running, "/user/keys");
    await call(running, "/user/keys");
    expect(await windows(running)).toEqual([
      { userId: 1, limit: 10, used: 2, remaining: 8, renewsInSeconds: expect.any(Number) },
      { userId: 2, limit: 10, used: 0, remaining: 10, renewsInSeconds: 3600 },
      { userId: 3, limit: 10, used: 0, remaining: 10, renewsInSeconds: 3600 },
    ]);
    expect((await windows(running))[0].used).toBe(2);
  });
});

describe("PUT /_emulator/credits", () => {
  it("with remaining 0 makes the next API call answer 429 with Retry-After, and DELETE renews", async () => {
    const running = await start(10);
    const put = await credits(running, "PUT", { remaining: 0 });
    expect(put.status).toBe(200);
    expect((await readJson(put)).map((window: { remaining: number }) => window.remaining)).toEqual([0, 0, 0]);

    const refused = await call(running, "/user/keys");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3590);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await call(running, "/user/keys", { key: OTHER_KEY, account: OTHER_ACCOUNT })).status).toBe(429);

    const renewed = await credits(running, "DELETE");
    expect(renewed.status).toBe(200);
    expect((await readJson(renewed)).every((window: { remaining: number }) => window.remaining === 10)).toBe(true);
    const served = await call(running, "/user/keys");
    expect(served.status).toBe(200);
    expect(served.headers.get("x-ratelimit-remaining")).toBe("9");
  });

  it("sets one user's window when userId is given", async () => {
    const running = await start(10);
    expect((await credits(running, "PUT", { remaining: 1, userId: 2 })).status).toBe(200);
    expect((await windows(running)).map((window) => window.remaining)).toEqual([10, 1, 10]);
    expect((await call(running, "/user/keys", { key: LEE_KEY })).headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await call(running, "/user/keys", { key: LEE_KEY })).status).toBe(429);
    expect((await call(running, "/user/keys")).status).toBe(200);
  });

  it("can give back credits already spent", async () => {
    const running = await start(3);
    for (let i = 0; i < 3; i++) await call(running, "/user/keys");
    expect((await call(running, "/user/keys")).status).toBe(429);
    await credits(running, "PUT", { remaining: 3, userId: 1 });
    expect((await call(running, "/user/keys")).headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it.each([
    [{}, "remaining is required"],
    [{ remaining: -1 }, "remaining must be an integer from 0 to 10"],
    [{ remaining: 11 }, "remaining must be an integer from 0 to 10"],
    [{ remaining: 1.5 }, "remaining must be an integer from 0 to 10"],
    [{ remaining: "5" }, "remaining must be an integer from 0 to 10"],
    [{ remaining: 5, userId: "1" }, "userId must be an integer"],
    [{ remaining: 5, userId: 99 }, "userId 99 is not a user of any account"],
    [{ remaining: 5, user: 1 }, "user is not a credit setting; expected remaining, userId"],
    [null, "the body must be a JSON object"],
  ])("answers 400 naming the field for %j and changes nothing", async (body, message) => {
    const running = await start(10);
    const response = await credits(running, "PUT", body);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await readJson(response)).toEqual({ message });
    expect((await windows(running)).map((window) => window.remaining)).toEqual([10, 10, 10]);
  });
});

describe("CreditLedger controls", () => {
  it("report, set and renew windows", () => {
    let now = 0;
    const ledger = new CreditLedger(5, () => now);
    ledger.charge(1);
    now += 60_000;
    expect(ledger.window(1)).toEqual({ userId: 1, limit: 5, used: 1, remaining: 4, renewsInSeconds: 3540 });
    ledger.setRemaining(2, 0);
    expect(ledger.charge(2).allowed).toBe(false);
    expect(() => ledger.setRemaining(2, 6)).toThrow(RangeError);
    ledger.renewAll();
    expect(ledger.window(1)).toMatchObject({ used: 0, remaining: 5, renewsInSeconds: 3600 });
    expect(ledger.charge(2)).toMatchObject({ allowed: true, remaining: 4 });
  });
});
