import { AREAS } from "./areas";
import { allAccounts } from "./areas/accounts/interface";
import { ownerOf } from "./areas/members/interface";
import { defaultFixtures, loadFixturesFile, storeFromFixtures, validateFixtures, type Fixtures, type ValidFixtures } from "./fixtures";
import { systemClock, type Clock } from "./clock";
import { CreditLedger } from "./credits";
import { loadSnapshot, Persistence } from "./persistence";
import { checkPublicUrl } from "./public-url";
import { createEmulatorServer } from "./server";
import { Store } from "./store";

/** Programmatic entry point: start an emulator on a port, talk to it, close it. */

export type { Fixtures } from "./fixtures";
export { FixturesError } from "./fixtures";
export { PersistenceError } from "./persistence";
export { PublicUrlError } from "./public-url";

export interface StartEmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port to listen on; default 0, a free port chosen by the system. */
  port?: number;
  /** Records to start with, or the path of a JSON file holding them; default one account. */
  fixtures?: Fixtures | string;
  /** Run every cluster, job and schedule lifecycle this many times faster; default 1. */
  speed?: number;
  /**
   * API credits each user may spend per hour (spec section 8); default 5,000. Hours are real
   * hours whatever `speed` is.
   */
  creditsPerHour?: number;
  /** The allowance's window in seconds (default 3600): `creditsPerHour` credits per window. */
  creditWindowSeconds?: number;
  /**
   * Keep all state in this folder (`state.json`) across restarts. When the folder already
   * holds state, `fixtures` are ignored: they only seed an empty folder. An unreadable or
   * foreign `state.json` fails the start with a PersistenceError.
   */
  dataDir?: string;
  /**
   * The origin clients reach the emulator at (`http://` or `https://`, host, optional port; no
   * path, query or user information), for Link headers and `url` fields. Default: the
   * listening address, `http://host:port`. The request's Host header is never used.
   */
  publicUrl?: string;
}

export interface EmulatorAccount {
  uid: string;
  /** The API key of the account's owner (the first user of the fixtures unless another is named owner). */
  apiKey: string;
}

export interface RunningEmulator {
  /** `http://host:port` of the listening socket, without a trailing slash. */
  url: string;
  /** Stops the server and cancels a scheduled return from an outage; safe to call twice. */
  close(): Promise<void>;
  /**
   * An outage: stops listening and drops every open connection, so connections are refused.
   * State is kept and lifecycles keep moving. Idempotent; cancels a scheduled return.
   */
  suspend(): Promise<void>;
  /** Listens again on the same host and port. Idempotent; cancels a scheduled return. */
  resume(): Promise<void>;
  /** Suspends now and resumes by itself `ms` milliseconds later; resolves once suspended. */
  outage(ms: number): Promise<void>;
  accounts: EmulatorAccount[];
  /** True when the state was loaded from `dataDir` rather than built from fixtures. */
  restored: boolean;
}

function resolveFixtures(fixtures: Fixtures | string | undefined): ValidFixtures {
  if (fixtures === undefined) return defaultFixtures();
  if (typeof fixtures === "string") return loadFixturesFile(fixtures);
  return validateFixtures(fixtures);
}

/** Closing twice (a test's afterAll plus a signal, say) must not fail. */
function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}

/** The saved state of `dataDir` when there is one, else the fixtures. */
function loadStore(options: StartEmulatorOptions, clock: Clock): { store: Store; restored: boolean } {
  const saved = options.dataDir === undefined ? undefined : loadSnapshot(options.dataDir);
  if (saved !== undefined) return { store: Store.fromSnapshot(saved, clock, AREAS), restored: true };
  return { store: storeFromFixtures(resolveFixtures(options.fixtures), clock), restored: false };
}

function checkOutageMs(ms: number): void {
  if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`an outage lasts a finite number of milliseconds, at least 0, got ${ms}`);
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const publicUrl = checkPublicUrl(options.publicUrl, "publicUrl");
  const clock = systemClock(options.speed ?? 1);
  const credits = new CreditLedger(
    options.creditsPerHour,
    Date.now,
    options.creditWindowSeconds === undefined ? undefined : options.creditWindowSeconds * 1000,
  );
  const { store, restored } = loadStore(options, clock);
  const persistence = options.dataDir === undefined ? undefined : new Persistence(options.dataDir, store);
  persistence?.start();
  const { availability } = createEmulatorServer(store, () => publicUrl ?? availability.listenUrl, { persistence, credits });
  await availability.start(options.port ?? 0, options.host ?? "127.0.0.1");

  return {
    url: availability.listenUrl,
    accounts: allAccounts(store).map((account) => ({ uid: account.uid, apiKey: ownerOf(store, account.id)?.apiKey ?? "" })),
    restored,
    close: once(async () => {
      await availability.close();
      // Lifecycles may have moved on while serving control requests, which save nothing.
      persistence?.saveIfChanged();
    }),
    suspend: () => availability.suspend(),
    resume: () => availability.resume(),
    outage: async (ms) => {
      checkOutageMs(ms);
      await availability.suspendUntil(Date.now() + ms);
    },
  };
}
