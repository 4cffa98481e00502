import * as http from "node:http";
import * as https from "node:https";

/**
 * One HTTP POST to a web hook's receiver. It never rejects and never outlives its timeout:
 * whatever the receiver does (refuses, hangs, answers slowly or endlessly), the outcome is a
 * value to record. Its socket does not keep the process alive, so stopping the service never
 * waits for a receiver.
 */

export interface OutgoingPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Send to an https receiver whose certificate does not verify (the hook's `insecure_ssl`). */
  insecureSsl: boolean;
  timeoutMs: number;
}

export interface PostOutcome {
  /** The receiver's answer, when one came in full. */
  response: { status: number; body: string } | null;
  /** Why there was no full answer. */
  error: string | null;
}

/** Enough of an answer to show what the receiver said; the rest is read and dropped. */
const KEPT_BODY_CHARACTERS = 1000;

function readAnswer(response: http.IncomingMessage, finish: (outcome: PostOutcome) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  response.on("data", (chunk: Buffer) => {
    if (kept < KEPT_BODY_CHARACTERS * 4) chunks.push(chunk);
    kept += chunk.length;
  });
  response.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8").slice(0, KEPT_BODY_CHARACTERS);
    finish({ response: { status: response.statusCode ?? 0, body }, error: null });
  });
  response.on("error", (error) => finish({ response: null, error: error.message }));
}

export function postJson(post: OutgoingPost): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let request: http.ClientRequest | undefined;
    let done = false;
    const finish = (outcome: PostOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request?.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ response: null, error: `no answer within ${post.timeoutMs} ms` }), post.timeoutMs);
    timer.unref();
    try {
      const url = new URL(post.url);
      const client = url.protocol === "https:" ? https : http;
      const headers = { ...post.headers, "Content-Length": String(Buffer.byteLength(post.body)) };
      // No shared agent: a pooled connection to a receiver would outlive the delivery.
      request = client.request(url, { method: "POST", headers, agent: false, rejectUnauthorized: !post.insecureSsl });
      request.on("socket", (socket) => socket.unref());
      request.on("response", (response) => readAnswer(response, finish));
      request.on("error", (error) => finish({ response: null, error: error.message }));
      request.end(post.body);
    } catch (error) {
      finish({ response: null, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
