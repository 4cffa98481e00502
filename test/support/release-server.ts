/**
 * The release folder served over HTTP on the loopback address, as a download page serves a
 * release's assets: every request recorded, with the SHA-256 of the bytes it was answered with.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

export interface ServedRequest {
  method: string;
  path: string;
  status: number;
  /** SHA-256 of the body sent, hex; none when nothing was. */
  sha256?: string;
}

export interface FolderServer {
  url: string;
  requests: ServedRequest[];
  close(): Promise<void>;
}

export async function serveFolder(root: string): Promise<FolderServer> {
  const requests: ServedRequest[] = [];
  const server = createServer((request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url ?? "/", "http://loopback").pathname);
    const file = path.join(root, urlPath);
    const record: ServedRequest = { method: request.method ?? "", path: urlPath, status: 404 };
    requests.push(record);
    if (request.method !== "GET" || !file.startsWith(root + path.sep)) return void response.writeHead(404).end();
    readFile(file).then(
      (body) => {
        Object.assign(record, { status: 200, sha256: createHash("sha256").update(body).digest("hex") });
        response.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
