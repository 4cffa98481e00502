/**
 * The release's executables other than the plugin (`etl`, the policy pack), unpacked from their
 * archives as a user does, and the commands they run watched as a user at a terminal would.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { platformArchive, releaseFile, VERSION, type UserMachine } from "./release";
import type { Service } from "./engine";

/**
 * The archive `<name>-v<version>-linux-<arch>.tar.gz` unpacked into a folder of its own beside
 * the machine's project; returns that folder.
 */
export function unpackArchive(machine: UserMachine, name: string): string {
  const folder = path.join(path.dirname(machine.dir), name);
  mkdirSync(folder, { recursive: true });
  execFileSync("tar", ["-xzf", platformArchive(name), "-C", folder]);
  return folder;
}

/** checksums.txt gives the SHA-256 of the archive `<name>-v<version>-linux-<arch>.tar.gz` of each platform the release is built for. */
export function expectChecksummed(name: string): void {
  const checksums = readFileSync(releaseFile("checksums.txt"), "utf8");
  for (const arch of ["amd64", "arm64"]) {
    const archive = `${name}-v${VERSION}-linux-${arch}.tar.gz`;
    expect(checksums).toContain(
      `${createHash("sha256")
        .update(readFileSync(releaseFile(archive)))
        .digest("hex")}  ${archive}\n`,
    );
  }
}

/** The first `count` lines a command prints, once it has printed them. */
export function firstLines(child: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const lines = output.split("\n");
      if (lines.length > count) resolve(lines.slice(0, count));
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} after printing:\n${output}`)));
  });
}

/** A command of the machine started in its project folder and left running, its output kept. */
export function startCommand(
  machine: UserMachine,
  file: string,
  args: string[],
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(file, args, { cwd: machine.dir, env: machine.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  return { child, output: () => output, exited };
}

/** The service an emulator's start-up lines name: `… listening on URL`, `account: ID`, `api key: KEY`. */
export function serviceFromStartup(lines: string[]): Service {
  const [listening, account, apiKey] = lines;
  const url = /listening on (http:\/\/\S+)$/.exec(listening ?? "")?.[1];
  if (url === undefined || !account?.startsWith("account: ") || !apiKey?.startsWith("api key: "))
    throw new Error(`unexpected start-up lines: ${lines.join("\n")}`);
  return { url, accountId: account.replace("account: ", ""), apiKey: apiKey.replace("api key: ", "") };
}
