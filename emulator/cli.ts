#!/usr/bin/env node
import { parseArgs } from "node:util";
import { requireSupportedNode } from "../contract/node-version";
import { FixturesError } from "./fixtures";
import { PersistenceError } from "./persistence";
import { checkPublicUrl, PublicUrlError } from "./public-url";
import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from "./index";

/**
 * `etl-emulator [--host H] [--port P] [--fixtures FILE] [--data DIR] [--speed N]
 * [--credits-per-hour N] [--credit-window-seconds N] [--public-url URL]`. Scripts wait for the
 * `etl-emulator listening on http://H:P` line and parse the URL from it, so that line's wording
 * is a contract.
 */

const USAGE =
  "usage: etl-emulator [--host H] [--port P] [--fixtures FILE] [--data DIR] [--speed N] [--credits-per-hour N] [--credit-window-seconds N] [--public-url URL]";
const DEFAULT_PORT = 4010;
const EXIT_USAGE = 2;

interface CliOptions extends StartEmulatorOptions {
  host: string;
  port: number;
  fixtures: string | undefined;
  help: boolean;
}

/** Bad input from the person at the terminal: one line, no stack trace. */
class UsageError extends Error {}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new UsageError(`invalid --port "${text}": expected an integer from 0 to 65535`);
  }
  return Number(text);
}

/** Plain decimals only: `Number()` would also take "", "0x10" and "Infinity". */
function parseSpeed(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text) || !(value > 0) || !Number.isFinite(value)) {
    throw new UsageError(`invalid --speed "${text}": expected a positive number`);
  }
  return value;
}

function parseWindow(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1) throw new UsageError(`invalid --credit-window-seconds "${text}": expected a positive integer`);
  return Number(text);
}

function parseCredits(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
    throw new UsageError(`invalid --credits-per-hour "${text}": expected a positive integer`);
  }
  return Number(text);
}

function nonEmpty(name: string, value: string | undefined): string | undefined {
  if (value === "") throw new UsageError(`invalid --${name}: must not be empty`);
  return value;
}

function readArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        fixtures: { type: "string" },
        data: { type: "string" },
        speed: { type: "string" },
        "credits-per-hour": { type: "string" },
        "credit-window-seconds": { type: "string" },
        "public-url": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]!);
  }
}

function parseCli(argv: string[]): CliOptions {
  const values = readArgs(argv);
  return {
    host: nonEmpty("host", values.host) ?? "127.0.0.1",
    port: parsePort(values.port),
    fixtures: values.fixtures,
    dataDir: nonEmpty("data", values.data),
    speed: parseSpeed(values.speed),
    creditsPerHour: parseCredits(values["credits-per-hour"]),
    creditWindowSeconds: parseWindow(values["credit-window-seconds"]),
    publicUrl: checkPublicUrl(values["public-url"], "--public-url"),
    help: values.help ?? false,
  };
}

function printStartup(emulator: RunningEmulator, generatedAccount: boolean): void {
  const lines = [`etl-emulator listening on ${emulator.url}`];
  // Default credentials are random, so they are only usable if printed.
  const account = emulator.accounts[0];
  if (generatedAccount && account !== undefined) {
    lines.push(`account: ${account.uid}`, `api key: ${account.apiKey}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

function closeOnSignals(emulator: RunningEmulator): void {
  const stop = (): void => {
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`etl-emulator: error while closing: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function fail(message: string, exitCode: number): void {
  process.stderr.write(`etl-emulator: ${message}\n`);
  process.exitCode = exitCode;
}

async function main(argv: string[]): Promise<void> {
  const { help, ...options } = parseCli(argv);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const emulator = await startEmulator(options);
  // Handlers first: a harness may send a signal as soon as it reads the listening line.
  closeOnSignals(emulator);
  printStartup(emulator, options.fixtures === undefined && !emulator.restored);
}

requireSupportedNode("etl-emulator");
main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof PublicUrlError) {
    fail(`${error.message} (${USAGE})`, EXIT_USAGE);
  } else if (error instanceof FixturesError || error instanceof PersistenceError) {
    fail(error.message.replace(/\s*\n\s*/g, " "), EXIT_USAGE);
  } else {
    // Typically the port is taken (EADDRINUSE) or the host is not an address of this machine.
    fail(`cannot start: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
});
