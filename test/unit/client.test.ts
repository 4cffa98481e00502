/** The HTTP client against the emulator: address, headers, errors by status, redaction. */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpRequest, type RequestFn } from "../../provider/client/http";
import { AuthenticationError, ConnectionError, NotFoundError, UnreachableError, ValidationError } from "../../provider/client/errors";
import { ConfigurationError } from "../../provider/config";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClient } from "../../provider/client";

const API_KEY = "client-test-key-0123456789";
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH quickstart-deploy";

describe("HTTP client", () => {
  let emulator: RunningEmulator;
  let request: RequestFn;
  const clientFor = (apiKey: string, vendor = "service") => createHttpRequest({ apiUrl: emulator.url, accountId: "acme", apiKey, vendor });

  beforeAll(async () => {
    emulator = await startEmulator({
      fixtures: { accounts: [{ id: 1, uid: "acme", users: [{ id: 1, name: "A", email: "a@example.com", apiKey: API_KEY }] }] },
    });
    request = clientFor(API_KEY);
  });
  afterAll(() => emulator.close());

  it("creates and reads through {base_url} with Basic auth and the versioned Accept header", async () => {
    const created = await request<{ id: number; fingerprint: string }>({ method: "POST", path: "/user/keys", body: { public_key: KEY } });
    expect(created.status).toBe(201);
    const read = await request<{ id: number; name: string }>({ method: "GET", path: `/user/keys/${created.body.id}` });
    expect(read.body).toMatchObject({ id: created.body.id, name: "quickstart-deploy" });
    expect(read.headers["content-type"]).toBe("application/vnd.service+json; version=2");
  });

  it("turns 404 into NotFoundError carrying the service's message", async () => {
    const error = await request({ method: "GET", path: "/user/keys/999999" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, serviceMessage: "Item not found." });
    expect((error as Error).message).toBe("GET /acme/api/user/keys/999999 failed with 404 Not Found: Item not found.");
  });

  it("turns 422 into ValidationError", async () => {
    const error = await request({ method: "POST", path: "/user/keys", body: { public_key: "nope" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).serviceMessage).toMatch(/public_key/);
  });

  it("turns 401 into AuthenticationError and never exposes the key", async () => {
    const wrongKey = "wrong-key-abcdef";
    const error = await clientFor(wrongKey)
      .call(null, { method: "GET", path: "/user/keys" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const everything = JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack });
    expect(everything).not.toContain(wrongKey);
    expect(everything).not.toContain(Buffer.from(`${wrongKey}:`).toString("base64"));
    expect((error as AuthenticationError).request.headers.authorization).toBe("[REDACTED]");
  });

  it("is answered 404 when the media type's vendor is wrong", async () => {
    const error = await clientFor(API_KEY, "other")
      .call(null, { method: "GET", path: "/user/keys" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it("reports an unreachable service as ConnectionError", async () => {
    const closed = createHttpRequest({ apiUrl: "http://127.0.0.1:9", accountId: "acme", apiKey: API_KEY, vendor: "service" });
    const error = await closed({ method: "GET", path: "/user/keys" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("could not reach http://127.0.0.1:9");
  });

  it("tells a connection the service dropped from a service it could not reach", async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const dropping = createHttpRequest({ apiUrl: `http://127.0.0.1:${port}`, accountId: "acme", apiKey: API_KEY, vendor: "service" });
    const error = await dropping({ method: "GET", path: "/user/keys" }).catch((e: unknown) => e);
    server.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain(`the connection to http://127.0.0.1:${port} was dropped before a complete answer`);
    expect((error as Error).message).not.toContain("could not reach");
  });

  it("with its policies, rides out injected faults on reads, each fault costing one retry", async () => {
    const faults = { rate: 0.4, kinds: ["500", "503", "429", "reset_before", "reset_after"], seed: 7 };
    await controlFaults("PUT", faults);
    try {
      const waits: number[] = [];
      const client = createClient(
        { apiUrl: emulator.url, accountId: "acme", apiKey: API_KEY, vendor: "service", requestTimeoutSeconds: 10, maxRetries: 10, retryBudgetSeconds: 600 },
        { sleep: async (ms) => void waits.push(ms) },
      );
      for (let i = 0; i < 15; i += 1) await client.request({ method: "GET", path: "/user/keys" });
      const status = (await controlFaults("GET")) as { requests: number; injected: Record<string, number> };
      const injected = Object.values(status.injected).reduce((sum, n) => sum + n, 0);
      expect(injected).toBeGreaterThan(0);
      expect(client.stats.requests).toBe(status.requests);
      expect(client.stats.retries).toBe(injected);
      expect(client.stats.rateLimited).toBe(status.injected["429"] ?? 0);
      expect(waits).toHaveLength(injected);
    } finally {
      await controlFaults("DELETE");
    }
  });

  async function controlFaults(method: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${emulator.url}/_emulator/faults`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json();
  }
});

describe("plain http to a host that is not this machine", () => {
  const settings = (apiUrl: string, allowInsecureHttp?: boolean) => ({ apiUrl, accountId: "acme", apiKey: API_KEY, vendor: "service", allowInsecureHttp });

  it("to a host that does not resolve is answered as an address that cannot be reached, with no word of insecure http", async () => {
    const typo = createHttpRequest(settings("http://etl-typo.invalid"));
    const error = await typo({ method: "GET", path: "/user/keys" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(
      /^GET \/acme\/api\/user\/keys failed with no response: could not reach http:\/\/etl-typo\.invalid \((ENOTFOUND|EAI_AGAIN)\): nothing was sent; check etl:apiUrl \(the host name does not resolve/,
    );
    expect((error as Error).message).not.toMatch(/insecure|unencrypted|allowInsecureHttp/i);
  });

  it("to a host that answers is refused for its scheme, naming the setting that allows it, with nothing written to the connection", async () => {
    const received: Buffer[] = [];
    let connections = 0;
    const server = createServer((socket) => {
      connections += 1;
      socket.on("data", (chunk) => received.push(chunk));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    // 0.0.0.0 reaches this machine's listeners on Linux, and is not one of the loopback names the rule lets through.
    const plain = createHttpRequest(settings(`http://0.0.0.0:${port}`));
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const error = await plain({ method: "GET", path: "/user/keys" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect((error as Error).message).toBe(
          `etl:apiUrl uses plain http to 0.0.0.0, which would send the API key unencrypted (http://0.0.0.0:${port} answers; nothing was sent); ` +
            'use https, or set etl:allowInsecureHttp (or ETL_ALLOW_INSECURE_HTTP) to "true" to accept that',
        );
      }
      // The host was tried once; the second request was refused without another connection.
      expect(connections).toBe(1);
      expect(Buffer.concat(received).length).toBe(0);
      const accepted = createHttpRequest(settings(`http://0.0.0.0:${port}`, true));
      const sent = await accepted({ method: "GET", path: "/user/keys", signal: AbortSignal.timeout(500) }).catch((e: unknown) => e);
      expect(sent).toBeInstanceOf(ConnectionError);
      expect(Buffer.concat(received).toString()).toContain("GET /acme/api/user/keys");
    } finally {
      server.close();
    }
  });
});
