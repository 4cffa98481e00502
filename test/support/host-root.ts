/** Calls at the local service's host root (`/accounts…`, `/user`), as the test account's user or another. */
import { ACCEPT, type LocalService } from "./service";

export async function atHostRoot(service: LocalService, method: string, path: string, body?: unknown, apiKey = service.apiKey): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      accept: ACCEPT,
      authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
