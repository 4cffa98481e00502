/** Calls at the emulator's host root (`/accounts…`, `/user`), as the test account's user or another. */
import { callWithKey } from "./http-call";
import type { Emulator } from "./service";

export function atHostRoot(service: Emulator, method: string, path: string, body?: unknown, apiKey = service.apiKey): Promise<{ status: number; body: any }> {
  return callWithKey(`${service.url}${path}`, apiKey, method, body);
}
