/** An emulator that hooks start and close around a file's tests, read by the tests once started. */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import type { RequestFn } from "../../../provider/client/http";
import { call } from "../helpers";

export interface Running {
  emulator: RunningEmulator;
  /** The provider's client, signed in as Dana. */
  dana: RequestFn;
}

export interface RunningService extends Readonly<Running> {
  /** A request as Dana (or as the owner of `key`), answered as it is. */
  send(method: string, path: string, body?: unknown, key?: string): Promise<Response>;
}

/** Starts the service before all the file's tests or before each, and closes it after. */
export function useRunningService(start: () => Promise<Running>, scope: "all" | "each"): RunningService {
  let running: Running | undefined;
  const [before, after] = scope === "all" ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    running = await start();
  });
  after(async () => {
    await running?.emulator.close();
  });
  const started = () => {
    if (running === undefined) throw new Error("the service is started by a hook that has not run");
    return running;
  };
  return {
    get emulator() {
      return started().emulator;
    },
    get dana() {
      return started().dana;
    },
    send: (method, path, body, key) => call(started().emulator, path, { method, body, key }),
  };
}
