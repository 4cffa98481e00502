/**
 * The release's npm tarballs served as a registry serves published packages, on the loopback
 * address: a package of the release by its name (its document naming its one version, the
 * tarball's address and integrity), any other package redirected to the machine's registry. npm
 * pointed at it (`npm_config_registry`) installs a project's `pulumi-etl@^<version>` as it would
 * once the release is published.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

export interface NpmRegistry {
  url: string;
  /** The release's packages npm asked for, by name, in order. */
  served: string[];
  close(): Promise<void>;
}

interface Published {
  manifest: Record<string, unknown>;
  file: string;
  bytes: Buffer;
}

function published(tarball: string): Published {
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as Record<string, unknown>;
  return { manifest, file: path.basename(tarball), bytes: readFileSync(tarball) };
}

/** The package's document as a registry answers `GET /<name>`. */
function packument(pkg: Published, base: string): Record<string, unknown> {
  const { name, version } = pkg.manifest as { name: string; version: string };
  const dist = {
    tarball: `${base}/-/${pkg.file}`,
    integrity: `sha512-${createHash("sha512").update(pkg.bytes).digest("base64")}`,
    shasum: createHash("sha1").update(pkg.bytes).digest("hex"),
  };
  return { name, "dist-tags": { latest: version }, versions: { [version]: { ...pkg.manifest, dist } } };
}

export async function serveNpmPackages(tarballs: string[]): Promise<NpmRegistry> {
  const upstream = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim().replace(/\/$/, "");
  const packages = new Map(tarballs.map((tarball) => published(tarball)).map((pkg) => [pkg.manifest.name as string, pkg]));
  const served: string[] = [];
  let base = "";
  const server = createServer((request, response) => {
    const urlPath = new URL(request.url ?? "/", "http://loopback").pathname;
    const tarball = [...packages.values()].find((pkg) => urlPath === `/-/${pkg.file}`);
    if (tarball) return void response.writeHead(200, { "content-type": "application/octet-stream" }).end(tarball.bytes);
    const name = decodeURIComponent(urlPath.slice(1));
    const pkg = packages.get(name);
    if (!pkg) return void response.writeHead(302, { location: `${upstream}${request.url}` }).end();
    served.push(name);
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument(pkg, base)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/`, served, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
