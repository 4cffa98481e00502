/**
 * What a provider learns of the service (its settings' proof, who its API key's user is) lives
 * with its operations' context, not in the module: a second provider of the process, or a test,
 * starts knowing nothing, even when it sends through the very same request function.
 */
import { describe, expect, it } from "vitest";
import type { ApiRequest, ApiResponse, RequestFn } from "../../provider/client/http";
import { configuredBy, operationContext, processResources } from "../../provider/context";
import { resolveConfig, type ProviderConfig } from "../../provider/config";
import { currentUserId } from "../../provider/resources/shared/current-user";
import { settingsProven } from "../../provider/settings-proof";

const LOOKUP: Record<string, string> = { "etl:apiUrl": "http://127.0.0.1:9", "etl:accountId": "acme", "etl:apiKey": "test-key" };

function settings(): ProviderConfig {
  const resolved = resolveConfig((key) => LOOKUP[key], {});
  if (!resolved.ok) throw resolved.error;
  return resolved.config;
}

const ACCOUNT = {
  id: 7,
  account_id: "acme",
  name: "Acme",
  region: "eu",
  is_owner: true,
  owner_id: 42,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};
const USER = { id: 42, name: "Owner", email: "owner@example.com", created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z" };

/** Answers the account and the user, and notes each call as `METHOD path`. */
function countingService(): RequestFn & { calls: string[] } {
  const calls: string[] = [];
  const request = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const path = req.path ?? req.url ?? "";
    calls.push(`${req.method} ${path}`);
    return { status: 200, headers: {}, body: (path === "/user" ? USER : ACCOUNT) as T };
  };
  return Object.assign(request as RequestFn, { calls });
}

describe("what a provider learns of the service", () => {
  it("is proven once per provider: a second provider with the same request function proves its settings again", async () => {
    const service = countingService();
    const first = operationContext(settings(), service);
    await settingsProven(first);
    await settingsProven(first);
    expect(service.calls).toEqual(["GET /accounts/acme"]);

    const second = operationContext(settings(), service);
    await settingsProven(second);
    expect(service.calls).toEqual(["GET /accounts/acme", "GET /accounts/acme"]);
  });

  it("knows its API key's user from its own proof or its own GET /user, never from another provider's", async () => {
    const service = countingService();
    const proven = operationContext(settings(), service);
    await settingsProven(proven);
    expect(await currentUserId(proven)).toBe(42);
    expect(service.calls).toEqual(["GET /accounts/acme"]);

    const unproven = operationContext(settings(), service);
    expect(await currentUserId(unproven)).toBe(42);
    expect(await currentUserId(unproven)).toBe(42);
    expect(service.calls).toEqual(["GET /accounts/acme", "GET /user"]);
  });

  it("is not shared between two processes' resources with the same settings", () => {
    const first = configuredBy((key) => LOOKUP[key], processResources(), true)();
    const second = configuredBy((key) => LOOKUP[key], processResources(), true)();
    first.learned.userId = 42;
    first.learned.reachedAccounts.add("7");
    expect(second).not.toBe(first);
    expect(second.learned).toEqual({ reachedAccounts: new Set() });
  });
});
