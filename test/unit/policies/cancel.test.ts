/** Cancellation of a deployment as the client sees it, against a scripted server. */
import { describe, expect, it } from "vitest";
import { ConnectionError, OutcomeUnknownError, RequestCancelledError } from "../../../provider/client/errors";
import type { ApiRequest } from "../../../provider/client/http";
import { clientFor, failureOf, ok, useScriptedServer } from "./scripted-server";

const serve = useScriptedServer();

function cancellation() {
  const controller = new AbortController();
  return { controller, option: { signal: controller.signal, reason: () => "the deployment was cancelled" } };
}

const GET: ApiRequest = { method: "GET", path: "/things/1" };
const POST: ApiRequest = { method: "POST", path: "/things", body: { name: "x" } };

describe("a cancelled deployment", () => {
  it("sends no read once cancelled, and says why", async () => {
    const { url, received } = await serve([ok({ id: 1 })]);
    const { controller, option } = cancellation();
    const client = clientFor(url, {}, { cancellation: option });
    controller.abort();
    const error = await failureOf(client.request(GET));
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error.message).toBe("GET /things/1 failed with no response: given up: the deployment was cancelled");
    expect(received).toHaveLength(0);
  });

  it("aborts a read on the wire at once", async () => {
    // The server never answers: only an abort on the wire can end the read.
    const { url } = await serve([{ hang: true }]);
    const { controller, option } = cancellation();
    const client = clientFor(url, {}, { cancellation: option });
    const pending = failureOf(client.request(GET));
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toBeInstanceOf(RequestCancelledError);
  });

  it("stops retrying a read: the failure seen is final", async () => {
    const { url, received } = await serve([{ drop: true }, ok({ id: 1 })]);
    const { controller, option } = cancellation();
    const client = clientFor(url, {}, { cancellation: option, sleep: async () => void controller.abort() });
    expect(await failureOf(client.request(GET))).toBeInstanceOf(RequestCancelledError);
    expect(received).toHaveLength(1);
  });

  it("lets a create on the wire finish, so its object is not left unknown", async () => {
    const { url, received } = await serve([{ status: 201, body: { id: 7 }, delayMs: 300 }]);
    const { controller, option } = cancellation();
    const client = clientFor(url, {}, { cancellation: option });
    const pending = client.request(POST);
    setTimeout(() => controller.abort(), 50);
    expect((await pending).body).toEqual({ id: 7 });
    expect(received).toHaveLength(1);
  });

  it("lets a lookup marked to finish go out and finish after the cancellation", async () => {
    const { url, received } = await serve([ok([{ id: 7 }])]);
    const { controller, option } = cancellation();
    const client = clientFor(url, {}, { cancellation: option });
    controller.abort();
    expect((await client.request({ ...GET, finishOnCancel: true })).body).toEqual([{ id: 7 }]);
    expect(received).toHaveLength(1);
  });

  it("leaves a create whose answer was lost as an unknown outcome, for the resource to look up", async () => {
    const { url } = await serve([{ drop: true }]);
    const { controller, option } = cancellation();
    const client = clientFor(url, {}, { cancellation: option });
    controller.abort();
    const error = await failureOf(client.request(POST));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).causeError).toBeInstanceOf(ConnectionError);
  });
});
