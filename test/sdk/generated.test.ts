/**
 * The committed schema (schema.json) is the plugin's as it is now, and the committed SDKs
 * (sdk/nodejs, sdk/python, sdk/go) are exactly what Pulumi's code generators make from it: a change of a field, a kind or a function that
 * was not followed by `npm run sdk` fails here, naming the files that differ.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const LANGUAGES = ["nodejs", "python", "go"];

function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // Built JavaScript and Python caches are not generated sources.
    if (entry.isDirectory()) return ["node_modules", "bin", "__pycache__"].includes(entry.name) ? [] : filesUnder(root, full);
    return [path.relative(root, full).split(path.sep).join("/")];
  });
}

describe("the committed SDKs", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "etl-sdk-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("are what the code generators make from the current schema (run `npm run sdk` after changing it)", { timeout: 120_000 }, () => {
    execFileSync(process.execPath, ["--disable-warning=ExperimentalWarning", path.join(REPO_ROOT, "scripts", "sdk.cts"), "--out", scratch], { stdio: "pipe" });
    for (const language of LANGUAGES) {
      const committed = path.join(REPO_ROOT, "sdk", language);
      const fresh = path.join(scratch, language);
      expect(filesUnder(committed).sort(), `files of sdk/${language}`).toEqual(filesUnder(fresh).sort());
      const differing = filesUnder(fresh).filter((file) => readFileSync(path.join(committed, file), "utf8") !== readFileSync(path.join(fresh, file), "utf8"));
      expect(differing, `files of sdk/${language} that differ`).toEqual([]);
    }
    expect(readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"), "schema.json").toBe(readFileSync(path.join(scratch, "schema.json"), "utf8"));
  });
});
