/** https is verified: a server with a self-signed certificate is refused before any request is sent. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionError } from "../../../provider/client/errors";
import { clientFor, failureOf } from "./scripted-server";

describe("https", () => {
  let dir: string;
  let server: Server;
  let url: string;
  let requestsSeen = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "etl-tls-"));
    const key = join(dir, "key.pem");
    const cert = join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      requestsSeen += 1;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a self-signed certificate", async () => {
    const client = clientFor(url, { maxRetries: 0 });
    const error = await failureOf(client.request({ method: "GET", path: "/user/keys" }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/SELF_SIGNED|self-signed|self signed/i);
    expect(requestsSeen).toBe(0);
  });
});
