import { expect } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { SECRET_TEXTS } from "./hook-helpers";
import { call, DANA_KEY, readJson } from "./helpers";

/** What the tests of the hooks' operations share: creating hooks, and the check that no secret shows. */

/** Calls to the emulator the file started, read when each call is made. */
export function hookCalls(emulator: () => RunningEmulator) {
  const post = (body: unknown, key = DANA_KEY): Promise<Response> => call(emulator(), "/hooks", { method: "POST", body, key });
  const create = async (body: Record<string, unknown>): Promise<any> => {
    const response = await post(body);
    expect(response.status).toBe(201);
    return readJson(response);
  };
  return { post, create };
}

export function expectNoSecret(text: string): void {
  for (const secret of SECRET_TEXTS) expect(text).not.toContain(secret);
}
