import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { defaultFixtures, loadFixturesFile, validateFixtures, type Fixtures, type ValidFixtures } from "./fixtures";
import { createEmulatorServer } from "./server";
import { Store } from "./store";

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
  const fixtures = resolveFixtures(options.fixtures);
  const store = new Store(fixtures);
  let port = options.port ?? 0;
  const { server } = createEmulatorServer(store, () => `${urlHost(host)}:${port}`);

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
    accounts: fixtures.accounts.map((account) => ({ uid: account.uid, apiKey: account.users[0]!.apiKey })),
    close: once(() => closeServer(server)),
  };
}
