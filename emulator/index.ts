import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { defaultFixtures, loadFixturesFile, validateFixtures, type Fixtures, type ValidFixtures } from "./fixtures";
import { systemClock, type Clock } from "./clock";
import { CreditLedger } from "./credits";
import { loadSnapshot, Persistence } from "./persistence";
import { createEmulatorServer } from "./server";
import { Store } from "./store";
import { storeFromFixtures } from "./world";

/** Programmatic entry point: start an emulator on a port, talk to it, close it. */

export type { Fixtures } from "./fixtures";
export { FixturesError } from "./fixtures";
export { PersistenceError } from "./persistence";

export interface StartEmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; default 0, a free port chosen by the system. */
  port?: number;
  /** Records to start with, or the path of a JSON file holding them; default one account. */
  fixtures?: Fixtures | string;
  /** Run every cluster and job lifecycle this many times faster; default 1. */
  speed?: number;
  /**
   * API credits each user may spend per hour (spec section 8); default 5,000. Hours are real
   * hours whatever `speed` is.
   */
  creditsPerHour?: number;
  /**
   * Keep all state in this folder (`state.json`) across restarts. When the folder already
   * holds state, `fixtures` are ignored: they only seed an empty folder. An unreadable or
   * foreign `state.json` fails the start with a PersistenceError.
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
  /** True when the state was loaded from `dataDir` rather than built from fixtures. */
  restored: boolean;
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

/** The saved state of `dataDir` when there is one, else the fixtures. */
function loadStore(options: StartEmulatorOptions, clock: Clock): { store: Store; restored: boolean } {
  const saved = options.dataDir === undefined ? undefined : loadSnapshot(options.dataDir);
  if (saved !== undefined) return { store: Store.fromSnapshot(saved, clock), restored: true };
  return { store: storeFromFixtures(resolveFixtures(options.fixtures), clock), restored: false };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const clock = systemClock(options.speed ?? 1);
  const credits = new CreditLedger(options.creditsPerHour);
  const { store, restored } = loadStore(options, clock);
  const persistence = options.dataDir === undefined ? undefined : new Persistence(options.dataDir, store);
  persistence?.start();
  let port = options.port ?? 0;
  const { server } = createEmulatorServer(store, () => `${urlHost(host)}:${port}`, { persistence, credits });
  await listen(server, port, host);
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://${urlHost(host)}:${port}`,
    accounts: store.accounts().map((account) => ({ uid: account.uid, apiKey: account.users[0]!.apiKey })),
    restored,
    close: once(async () => {
      await closeServer(server);
      // Lifecycles may have moved on while serving control requests, which save nothing.
      persistence?.saveIfChanged();
    }),
  };
}
