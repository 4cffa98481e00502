import { connect, type Socket } from "node:net";

/**
 * Requests written byte for byte on a socket of their own. fetch and node:http normalise
 * targets, refuse malformed ones and set Host themselves, so they cannot send what these tests
 * are about.
 */

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no complete response head in ${JSON.stringify(text)}`);
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]), headers, body: text.slice(end + 4) };
}

function openSocket(url: string): Socket {
  const { hostname, port } = new URL(url);
  return connect(Number(port), hostname.replace(/^\[|\]$/g, ""));
}

/** Writes `text` and reads until the server closes the connection. */
export function sendRaw(url: string, text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = openSocket(url);
    const chunks: Buffer[] = [];
    socket.on("connect", () => socket.write(text));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The request line and headers, with the emulator's own Host unless `headers` give one. */
function requestHead(url: string, method: string, target: string, headers: Record<string, string>): string {
  const lines = Object.entries({ Host: new URL(url).host, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${target} HTTP/1.1\r\n${lines.join("")}\r\n`;
}

/** One request with `Connection: close`, so the answer ends with the connection. */
export function rawRequest(url: string, method: string, target: string, headers: Record<string, string> = {}, body = ""): Promise<RawResponse> {
  const length: Record<string, string> = body === "" ? {} : { "Content-Length": String(Buffer.byteLength(body)) };
  return sendRaw(url, requestHead(url, method, target, { ...headers, ...length, Connection: "close" }) + body);
}

/**
 * Sends the head and part of a body announced longer, then hangs up once the server has had
 * time to start reading it: a client that gives up mid-request.
 */
export function abortMidBody(url: string, method: string, target: string, headers: Record<string, string>): Promise<void> {
  const head = requestHead(url, method, target, { ...headers, "Content-Length": "1000" });
  return new Promise((resolve, reject) => {
    const socket = openSocket(url);
    socket.on("connect", () => socket.write(`${head}{"partial":`));
    socket.on("error", reject);
    socket.on("close", () => resolve());
    setTimeout(() => socket.destroy(), 200);
  });
}
