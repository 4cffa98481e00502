/**
 * The sizes the Installation page gives for the plugin ("about N MB unpacked, M MB packed") are
 * those of the release's archives, of each platform, within 5%: a plugin that grows or shrinks
 * fails here until the page says so.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { RELEASE_DIR, VERSION } from "../support/release";

const PAGE = path.resolve(__dirname, "..", "..", "docs", "installation-configuration.md");
const MB = 1_000_000;
const TOLERANCE = 0.05;
const EXECUTABLE = "pulumi-resource-etl";

/** The page's sizes, in bytes. */
function documentedSizes(): { unpacked: number; packed: number } {
  const stated = /about (\d+(?:\.\d+)?) MB unpacked, (\d+(?:\.\d+)?) MB packed/.exec(readFileSync(PAGE, "utf8"));
  if (!stated) throw new Error(`${PAGE} no longer says "about N MB unpacked, M MB packed"`);
  return { unpacked: Number(stated[1]) * MB, packed: Number(stated[2]) * MB };
}

/** The executable's size as the archive lists it (`tar -tvzf`), and the archive's own. */
function archiveSizes(archive: string): { unpacked: number; packed: number } {
  const listing = execFileSync("tar", ["-tvzf", archive], { encoding: "utf8" }).trim().split("\n");
  const entry = listing.map((line) => line.split(/\s+/)).find((fields) => fields.at(-1) === EXECUTABLE);
  if (!entry) throw new Error(`${archive} holds no ${EXECUTABLE}:\n${listing.join("\n")}`);
  return { unpacked: Number(entry[2]), packed: statSync(archive).size };
}

const archives = readdirSync(RELEASE_DIR).filter((name) => name.startsWith(`${EXECUTABLE}-v${VERSION}-`) && name.endsWith(".tar.gz"));

describe("the plugin's sizes on the Installation page", () => {
  it("are stated for every archive of the release", () => {
    expect(archives.map((name) => name.replace(`${EXECUTABLE}-v${VERSION}-`, "")).sort()).toEqual(["linux-amd64.tar.gz", "linux-arm64.tar.gz"]);
  });

  it.each(archives)("are those of %s within 5%", (name) => {
    const documented = documentedSizes();
    const actual = archiveSizes(path.join(RELEASE_DIR, name));
    for (const kind of ["unpacked", "packed"] as const) {
      const measured = `${kind}: ${(actual[kind] / MB).toFixed(1)} MB measured, ${documented[kind] / MB} MB documented`;
      expect(Math.abs(actual[kind] / documented[kind] - 1), measured).toBeLessThanOrEqual(TOLERANCE);
    }
  });
});
