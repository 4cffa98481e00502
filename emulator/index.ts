import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { defaultFixtures, loadFixturesFile, validateFixtures, type Fixtures, type ValidFixtures } from "./fixtures";
import { systemClock } from "./clock";
import { loadSnapshot, Persistence } from "./persistence";
import { createEmulatorServer } from "./server";
import { Store } from "./store";
import { storeFromFixtures } from "./world";

/** Programmatic entry point: start an emulator on a port, talk to it, close it. */

export type { Fixtures } from "./fixtures";
export { FixturesError } from "./fixtures";

export interface StartEmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; default 0, a free port chosen by the system. */
  port?: number;
  /** Records to start with, or the path of a JSON file holding them; default one account. */
  fixtures?: Fixtures | string;
  /** Run every cluster and job lifecycle this many times faster; default 1. */
  speed?: number;
  /** API credits each user may spend per hour (spec section 8); default 5,000. */
  creditsPerHour?: number;
  /**
   * Keep all state in this folder across restarts. A folder holding state wins over
   * `fixtures`, which only seed an empty one.
   */
  dataDir?: string;
}

export interface EmulatorAccount {
  uid: string;
  /** The API key of the account's first user. */
  apiKey: string;
}

export interface RunningEmulator {
  /** `http://host:port`, without a trailing slash. */
  url: string;
  close(): Promise<void>;
  accounts: EmulatorAccount[];
}

function resolveFixtures(fixtures: Fixtures | string | undefined): ValidFixtures {
  if (fixtures === undefined) return defaultFixtures();
  if (typeof fixtures === "string") return loadFixturesFile(fixtures);
  return validateFixtures(fixtures);
}

/** IPv6 literals need brackets inside a URL. */
function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive connections of clients would otherwise hold close() open.
    server.closeAllConnections();
  });
}

/** Closing twice (a test's afterAll plus a signal, say) must not fail. */
function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const clock = systemClock(options.speed ?? 1);
  const saved = options.dataDir === undefined ? undefined : loadSnapshot(options.dataDir);
  const store = saved === undefined ? storeFromFixtures(resolveFixtures(options.fixtures), clock) : Store.fromSnapshot(saved, clock);
  const persistence = options.dataDir === undefined ? undefined : new Persistence(options.dataDir, store);
  persistence?.saveIfChanged();
  let port = options.port ?? 0;
  const { server } = createEmulatorServer(store, () => `${urlHost(host)}:${port}`, { persistence });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${urlHost(host)}:${port}`,
    accounts: store.accounts().map((account) => ({ uid: account.uid, apiKey: account.users[0]!.apiKey })),
    close: once(() => closeServer(server)),
  };
}
