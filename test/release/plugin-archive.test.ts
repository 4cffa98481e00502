/**
 * The sizes the Installation page gives for the plugin and the `etl` tools ("about N MB unpacked,
 * M MB packed", on each one's row of the release's files) are those of the release's archives, of
 * each platform, within 5%: an executable that grows or shrinks fails here until the page says so.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { RELEASE_DIR, VERSION } from "../support/release";

const PAGE = path.resolve(__dirname, "..", "..", "docs", "installation-configuration.md");
const MB = 1_000_000;
const TOLERANCE = 0.05;
const EXECUTABLES = ["pulumi-resource-etl", "etl"] as const;

/** The sizes the page's row of `executable`'s archives gives, in bytes. */
function documentedSizes(executable: string): { unpacked: number; packed: number } {
  const row = readFileSync(PAGE, "utf8")
    .split("\n")
    .find((line) => line.startsWith(`| \`${executable}-v${VERSION}-`));
  const stated = row && /about (\d+(?:\.\d+)?) MB unpacked, (\d+(?:\.\d+)?) MB packed/.exec(row);
  if (!stated) throw new Error(`${PAGE} no longer says "about N MB unpacked, M MB packed" on the row of ${executable}'s archives`);
  return { unpacked: Number(stated[1]) * MB, packed: Number(stated[2]) * MB };
}

/** The executable's size as the archive lists it (`tar -tvzf`), and the archive's own. */
function archiveSizes(archive: string, executable: string): { unpacked: number; packed: number } {
  const listing = execFileSync("tar", ["-tvzf", archive], { encoding: "utf8" }).trim().split("\n");
  const entry = listing.map((line) => line.split(/\s+/)).find((fields) => fields.at(-1) === executable);
  if (!entry) throw new Error(`${archive} holds no ${executable}:\n${listing.join("\n")}`);
  return { unpacked: Number(entry[2]), packed: statSync(archive).size };
}

describe.each(EXECUTABLES)("the sizes of %s on the Installation page", (executable) => {
  const archives = readdirSync(RELEASE_DIR).filter((name) => name.startsWith(`${executable}-v${VERSION}-`) && name.endsWith(".tar.gz"));

  it("are stated for every archive of the release", () => {
    expect(archives.map((name) => name.replace(`${executable}-v${VERSION}-`, "")).sort()).toEqual(["linux-amd64.tar.gz", "linux-arm64.tar.gz"]);
  });

  it.each(archives)("are those of %s within 5%", (name) => {
    const documented = documentedSizes(executable);
    const actual = archiveSizes(path.join(RELEASE_DIR, name), executable);
    for (const kind of ["unpacked", "packed"] as const) {
      const measured = `${kind}: ${(actual[kind] / MB).toFixed(1)} MB measured, ${documented[kind] / MB} MB documented`;
      expect(Math.abs(actual[kind] / documented[kind] - 1), measured).toBeLessThanOrEqual(TOLERANCE);
    }
  });
});
