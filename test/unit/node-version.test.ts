/**
 * The package's commands refuse a Node.js older than package.json's `engines.node` at once, in one
 * line naming both versions, where they used to load and fail later on a request.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { nodeVersionProblem, OLDEST_NODE } from "../../contract/node-version";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

describe("the oldest Node.js the commands run on", () => {
  it("is package.json's engines.node", () => {
    const engines = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).engines as { node: string };
    expect(engines.node).toBe(`>=${OLDEST_NODE}`);
  });

  it.each(["20.20.2", "22.18.9", "21.99.0", "8.0.0"])("refuses %s, naming the command and both versions", (running) => {
    expect(nodeVersionProblem("etl-export", running)).toBe(`etl-export needs Node.js ${OLDEST_NODE} or later; this is Node.js v${running}`);
  });

  it.each(["22.19.0", "22.19.1", "22.23.3", "24.0.0", "100.0.0"])("takes %s", (running) => {
    expect(nodeVersionProblem("etl-export", running)).toBeUndefined();
  });
});

describe("each command on an older Node.js", () => {
  // The Node.js running the tests, saying it is an old one before the command's first line runs.
  const folder = mkdtempSync(path.join(tmpdir(), "etl-old-node-"));
  const pretendOld = path.join(folder, "pretend-old.cjs");
  writeFileSync(pretendOld, 'Object.defineProperty(process.versions, "node", { value: "20.11.1" });\n');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it.each([
    ["etl-export", "dist/provider/export/cli.js", ["--language", "yaml", "--out", folder, "--api-url", "http://127.0.0.1:9", "--account-id", "a"]],
    ["etl-recover", "dist/provider/recover/cli.js", ["--dry-run"]],
    ["etl-emulator", "dist/emulator/cli.js", ["--port", "0"]],
  ])("%s exits 1 with one line before doing anything", async (command, file, args) => {
    const result = await promisify(execFile)(process.execPath, ["--require", pretendOld, path.join(ROOT, file), ...args], {
      env: { ...process.env, ETL_API_KEY: "unused" },
    }).catch((error: { stdout: string; stderr: string; code: number }) => error);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: `${command} needs Node.js ${OLDEST_NODE} or later; this is Node.js v20.11.1\n` });
  });
});
