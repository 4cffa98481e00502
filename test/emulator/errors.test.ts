import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { Store } from "../../emulator/store";
import { call, startTestEmulator, readJson } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("unexpected failures", () => {
  it("answer 500 with a generic message, are logged, and do not stop the server", async () => {
    vi.spyOn(Store.prototype, "list").mockImplementation(() => {
      throw new Error("simulated defect");
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const response = await call(emulator, "/user/keys");
    expect(response.status).toBe(500);
    expect(await readJson(response)).toEqual({ message: "Internal server error." });
    expect(stderr.mock.calls.map(([text]) => String(text)).join("")).toContain("simulated defect");

    vi.restoreAllMocks();
    expect((await call(emulator, "/user/keys")).status).toBe(200);
  });
});
