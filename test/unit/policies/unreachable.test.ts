/**
 * An address that cannot be reached, on virtual time: which failures mean nothing was sent; an
 * address the process never reached tried for the first-contact budget (a host name that does not
 * exist not at all), and one that has answered for the whole retry budget, then named with the
 * address and the setting to check; the process's other requests failing at once afterwards; and a
 * 401 naming the credentials' settings.
 */
import { describe, expect, it } from "vitest";
import { AuthenticationError, ConnectionError, OutcomeUnknownError, UnreachableError } from "../../../provider/client/errors";
import { createReachability } from "../../../provider/client";
import { decide, RETRY_DEFAULTS, type RetryOptions } from "../../../provider/client/policies/retry";
import { classifyNetworkFailure } from "../../../provider/client/network";
import type { ApiRequest } from "../../../provider/client/http";
import { clientFor, failureOf, ok, startScriptedServer, useScriptedServer } from "./scripted-server";

const serve = useScriptedServer();
const create: ApiRequest = { method: "POST", path: "/clusters", body: { nodes: 1 } };
const read: ApiRequest = { method: "GET", path: "/clusters/1" };

/** An error as Node reports it, with its code and system call. */
function systemError(code: string, syscall?: string): Error {
  return Object.assign(new Error(`${syscall ?? ""} ${code}`), { code, ...(syscall === undefined ? {} : { syscall }) });
}

/** Retry options on a clock that stands still, for decisions alone. */
function retryOptionsForTests(): RetryOptions {
  const stats = { retries: 0, retriesByReason: {}, gaveUp: 0, outcomeUnknown: 0 } as unknown as RetryOptions["stats"];
  return { ...RETRY_DEFAULTS, maxRetries: 3, budgetMs: 60_000, random: () => 0.5, stats, now: () => 0, sleep: async () => {} };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = await startScriptedServer([]);
  await server.close();
  return server.port;
}

describe("what a network failure says about the request", () => {
  it.each([
    ["ECONNREFUSED", "connect", "refused"],
    ["EHOSTUNREACH", "connect", "unroutable"],
    ["ENETUNREACH", "connect", "unroutable"],
    ["ETIMEDOUT", "connect", "unroutable"],
    ["ENOTFOUND", "getaddrinfo", "unresolvable"],
    ["EAI_AGAIN", "getaddrinfo", "unresolvable"],
    ["UND_ERR_CONNECT_TIMEOUT", undefined, "unroutable"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", undefined, "tls"],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", undefined, "tls"],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", undefined, "tls"],
    ["SELF_SIGNED_CERT_IN_CHAIN", undefined, "tls"],
    ["CERT_HAS_EXPIRED", undefined, "tls"],
    ["ERR_SSL_WRONG_VERSION_NUMBER", undefined, "tls"],
    ["EPROTO", "write", "tls"],
  ])("%s (%s) means nothing was sent: %s", (code, syscall, unreached) => {
    expect(classifyNetworkFailure(systemError(code, syscall))).toEqual({ detail: code, unreached });
  });

  it.each([
    ["ECONNRESET", "read"],
    ["EPIPE", "write"],
    ["ETIMEDOUT", "read"],
    ["EHOSTUNREACH", "read"],
    ["UND_ERR_SOCKET", undefined],
    ["ETL_REQUEST_TIMEOUT", undefined],
  ])("%s (%s) on a connection already made may have carried the request", (code, syscall) => {
    expect(classifyNetworkFailure(systemError(code, syscall))).toEqual({ detail: code });
  });

  it("takes the attempts of one connection (IPv4 and IPv6) together: unreached only when every one was", () => {
    const both = Object.assign(new AggregateError([systemError("ECONNREFUSED", "connect"), systemError("ECONNREFUSED", "connect")]), { code: "ECONNREFUSED" });
    expect(classifyNetworkFailure(both).unreached).toBe("refused");
    const mixed = new AggregateError([systemError("ECONNREFUSED", "connect"), systemError("ECONNRESET", "read")], "several");
    expect(classifyNetworkFailure(mixed)).toEqual({ detail: "several" });
  });
});

describe("an address that refuses connections", () => {
  it("never reached by the process, a create is tried for 5 s at most, whatever etl:maxRetries says, then names the address and etl:apiUrl", async () => {
    const port = await closedPort();
    const client = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 1, retryBudgetSeconds: 30 }, { reachability: createReachability() });
    const error = await failureOf(client.request(create));
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toBe(
      `POST /acme/api/clusters failed with no response: could not reach http://127.0.0.1:${port} (ECONNREFUSED) for 5 s: nothing was sent; ` +
        "check etl:apiUrl (the connection was refused: nothing listens at that address, or the service is down)",
    );
    expect(client.clock.waits.length).toBeGreaterThan(1);
    expect(client.clock.waits.reduce((sum, wait) => sum + wait, 0)).toBe(5_000);
    expect(client.stats).toMatchObject({ outcomeUnknown: 0, gaveUp: 1 });
  });

  it("once the service has answered the process, an outage is tried for the whole budget", async () => {
    const port = await closedPort();
    const client = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 1, retryBudgetSeconds: 30 }, { reachability: { answered: true } });
    const error = await failureOf(client.request(create));
    expect(error.message).toContain(`could not reach http://127.0.0.1:${port} (ECONNREFUSED) for 30 s: nothing was sent; check etl:apiUrl`);
    expect(client.clock.waits.reduce((sum, wait) => sum + wait, 0)).toBe(30_000);
  });

  it("a budget shorter than the first contact's is kept", async () => {
    const port = await closedPort();
    const client = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 1, retryBudgetSeconds: 3 }, { reachability: createReachability() });
    expect((await failureOf(client.request(read))).message).toContain("for 3 s");
    expect(client.clock.waits.reduce((sum, wait) => sum + wait, 0)).toBe(3_000);
  });

  it("never reached by the process, an address that does not answer the connection (no route, a connect timeout) is tried for 15 s, a refused one for 5 s", () => {
    const summary = { method: "GET", url: "http://10.255.255.1/acme/api/clusters/1", headers: {} };
    const unreachedBy = (detail: string) => new UnreachableError(summary, { origin: "http://10.255.255.1", detail, hint: "…" });
    // A process of its own each time: one that gave up on an outage fails its next request at once.
    const options = () => ({ ...retryOptionsForTests(), budgetMs: 120_000, reachability: createReachability() });
    const lastTry = (detail: string, since: number) => decide(unreachedBy(detail), { idempotent: true, retries: 0, startedAt: -since }, options());
    expect(lastTry("EHOSTUNREACH", 14_000)).toMatchObject({ retry: true });
    expect(lastTry("EHOSTUNREACH", 15_000)).toMatchObject({ retry: false });
    expect(lastTry("ECONNREFUSED", 4_000)).toMatchObject({ retry: true });
    expect(lastTry("ECONNREFUSED", 5_000)).toMatchObject({ retry: false });
  });

  it("with etl:maxRetries 0 is tried once", async () => {
    const port = await closedPort();
    const client = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 0 });
    const error = await failureOf(client.request(create));
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toContain(`could not reach http://127.0.0.1:${port} (ECONNREFUSED): nothing was sent; check etl:apiUrl`);
    expect(client.clock.waits).toEqual([]);
  });

  it("once unreachable for a whole budget, the process's next request tries once and fails at once, until the service answers", async () => {
    const port = await closedPort();
    // The service answered the process before this outage began.
    const reachability = { ...createReachability(), answered: true };
    const client = clientFor(`http://127.0.0.1:${port}`, { retryBudgetSeconds: 60 }, { reachability });
    await failureOf(client.request(read));
    const waitsOfTheFirst = client.clock.waits.length;

    const second = await failureOf(client.request(read));
    expect(second).toBeInstanceOf(UnreachableError);
    expect(second.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\) for 60 s/);
    expect(client.clock.waits).toHaveLength(waitsOfTheFirst);

    const back = await startScriptedServer([ok({ id: 1 }), ok({ id: 1 })], port);
    try {
      expect((await client.request(read)).body).toEqual({ id: 1 });
      expect(reachability).toEqual({ answered: true });
    } finally {
      await back.close();
    }
    const afterAnAnswer = await failureOf(client.request(read));
    expect(afterAnAnswer.message).toContain("for 60 s");
    expect(client.clock.waits.length).toBeGreaterThan(waitsOfTheFirst);
  });

  it("a service back within the budget answers the create, sent once", async () => {
    const port = await closedPort();
    let back: Awaited<ReturnType<typeof startScriptedServer>> | undefined;
    const client = clientFor(
      `http://127.0.0.1:${port}`,
      { maxRetries: 1 },
      {
        sleep: async () => {
          if (client.clock.waits.push(0) === 3) back = await startScriptedServer([{ status: 201, body: { id: 5 } }], port);
        },
      },
    );
    try {
      expect((await client.request(create)).body).toEqual({ id: 5 });
      expect(back!.received).toHaveLength(1);
    } finally {
      await back?.close();
    }
  });
});

describe("an unresolvable host", () => {
  it("a host name that does not exist, never reached by the process, fails at once, whatever the budget", async () => {
    const client = clientFor("http://nonexistent.invalid", { maxRetries: 3, retryBudgetSeconds: 120 }, { reachability: createReachability() });
    const error = await failureOf(client.request(read));
    expect(error).toBeInstanceOf(UnreachableError);
    // A lookup that could not be made now (EAI_AGAIN: no DNS server reached) is tried again; one that says the name does not exist is not.
    if (error.message.includes("ENOTFOUND")) expect(client.clock.waits).toEqual([]);
    else expect(error.message).toContain("(EAI_AGAIN) for 15 s");
  });

  it("ENOTFOUND before any answer is final, and after one is an outage like any other", () => {
    const summary = { method: "GET", url: "http://etl.example.invalid/acme/api/clusters/1", headers: {} };
    const failure = new UnreachableError(summary, { origin: "http://etl.example.invalid", detail: "ENOTFOUND", hint: "the host name does not resolve" });
    const options = { ...retryOptionsForTests(), budgetMs: 120_000 };
    const attempt = { idempotent: true, retries: 0, startedAt: 0 };
    expect(decide(failure, attempt, { ...options, reachability: createReachability() })).toEqual({ retry: false, error: failure });
    expect(decide(failure, attempt, { ...options, reachability: { answered: true } })).toMatchObject({ retry: true, reason: "connection" });
  });

  it("names the host and what to check", async () => {
    const client = clientFor("http://nonexistent.invalid", { maxRetries: 0 });
    const error = await failureOf(client.request(read));
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toMatch(
      /could not reach http:\/\/nonexistent\.invalid \((ENOTFOUND|EAI_AGAIN)\): nothing was sent; check etl:apiUrl \(the host name does not resolve/,
    );
  });
});

describe("a TLS handshake that fails", () => {
  it("an https address served by plain http: nothing reaches the server, and the message says the handshake failed", async () => {
    const { port, received } = await serve([ok()]);
    const client = clientFor(`https://127.0.0.1:${port}`, { maxRetries: 0 });
    const error = await failureOf(client.request(create));
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toContain(`could not reach https://127.0.0.1:${port} (`);
    expect(error.message).toContain("check etl:apiUrl (the TLS handshake failed");
    expect(received).toEqual([]);
  });
});

describe("a connection dropped after sending", () => {
  it("is not taken for an unreachable address: a create's outcome is unknown", async () => {
    const { url } = await serve([{ drop: true }]);
    const error = await failureOf(clientFor(url).request(create));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).causeError).toBeInstanceOf(ConnectionError);
    expect((error as OutcomeUnknownError).causeError).not.toBeInstanceOf(UnreachableError);
  });
});

describe("401", () => {
  it("names etl:apiKey, ETL_API_KEY and etl:accountId with the account, never the key", async () => {
    const { url } = await serve([{ status: 401, body: { message: "Invalid or missing credentials." } }]);
    const error = await failureOf(clientFor(url).request(read));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      'GET /acme/api/clusters/1 failed with 401 Unauthorized: Invalid or missing credentials.; check etl:apiKey (or ETL_API_KEY) and etl:accountId: the key must be that of a user of account "acme"',
    );
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain("test-key");
  });
});
