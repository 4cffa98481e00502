/** The per-request deadline: a late answer is abandoned and reported as a timeout. */
import { describe, expect, it } from "vitest";
import { ConnectionError, OutcomeUnknownError } from "../../../provider/client/errors";
import { clientFor, failureOf, ok, useScriptedServer, type Step } from "./scripted-server";

const serve = useScriptedServer();

const SHORT = { requestTimeoutSeconds: 0.1, maxRetries: 0 };

describe("request timeout", () => {
  it.each([
    ["no answer at all", { hang: true } as Step],
    ["a body that never completes", { stallBody: true } as Step],
  ])("turns %s into a ConnectionError saying it timed out", async (_label, step) => {
    const { url } = await serve([step]);
    const client = clientFor(url, SHORT);
    // The server never answers: only the deadline can end the request.
    const error = await failureOf(client.request({ method: "GET", path: "/slow" }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0 });
    expect(error.message).toBe(
      "GET /acme/api/slow failed with no response: timed out: no complete answer within 0.1 s " +
        "(etl:requestTimeoutSeconds is 0.1 s), so the request was abandoned",
    );
    expect(error.cause).toMatchObject({ code: "ETL_REQUEST_TIMEOUT" });
    expect(Object.keys(error)).not.toContain("cause");
  });

  it("lets an answer within the deadline through", async () => {
    const { url } = await serve([{ status: 200, body: { late: true }, delayMs: 20 }]);
    const client = clientFor(url, { requestTimeoutSeconds: 2 });
    expect((await client.request({ method: "GET", path: "/x" })).body).toEqual({ late: true });
  });

  it("retries a timed-out GET", async () => {
    const { url, received } = await serve([{ hang: true }, ok({ second: true })]);
    const client = clientFor(url, { requestTimeoutSeconds: 0.1, maxRetries: 2 });
    expect((await client.request({ method: "GET", path: "/x" })).body).toEqual({ second: true });
    expect(received).toHaveLength(2);
    expect(client.stats.retriesByReason).toEqual({ timeout: 1 });
  });

  it("never resends a timed-out POST: its outcome is unknown", async () => {
    const { url, received } = await serve([{ hang: true }, ok()]);
    const client = clientFor(url, { requestTimeoutSeconds: 0.1, maxRetries: 2 });
    const error = await failureOf(client.request({ method: "POST", path: "/things", body: {} }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain("timed out");
    expect(received).toHaveLength(1);
  });
});
