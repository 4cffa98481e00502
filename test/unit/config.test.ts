import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../provider/config";

const lookupOf = (values: Record<string, string>) => (key: string) => values[key];
const good = { "etl:apiUrl": "http://127.0.0.1:4010/", "etl:accountId": "acme-data", "etl:apiKey": "k3y" };

function errorOf(values: Record<string, string>, env: NodeJS.ProcessEnv = {}): string {
  const result = resolveConfig(lookupOf(values), env);
  if (result.ok) throw new Error("expected a configuration error");
  return result.error.message;
}

describe("provider configuration", () => {
  it("reads stack config and normalizes the URL", () => {
    const result = resolveConfig(lookupOf(good), {});
    expect(result).toEqual({
      ok: true,
      config: { apiUrl: "http://127.0.0.1:4010", accountId: "acme-data", apiKey: "k3y", vendor: "service" },
    });
  });

  it("falls back to environment variables, stack config winning", () => {
    const env = { ETL_API_URL: "https://etl.example.com", ETL_ACCOUNT_ID: "from-env", ETL_API_KEY: "env-key" };
    const result = resolveConfig(lookupOf({ "etl:accountId": "from-config" }), env);
    expect(result.ok && result.config).toMatchObject({ apiUrl: "https://etl.example.com", accountId: "from-config", apiKey: "env-key" });
  });

  it("names every missing setting with both ways to set it", () => {
    const message = errorOf({});
    expect(message).toContain("etl:apiUrl is not set (run `pulumi config set etl:apiUrl <value>` or set ETL_API_URL)");
    expect(message).toContain("etl:accountId is not set");
    expect(message).toContain("pulumi config set --secret etl:apiKey");
  });

  it.each([
    ["etl:apiUrl", "not a url", "etl:apiUrl must be an absolute URL"],
    ["etl:apiUrl", "ftp://etl.example.com", 'etl:apiUrl must use http or https, got "ftp"'],
    ["etl:apiUrl", "https://user:pw@etl.example.com", "etl:apiUrl must not carry credentials"],
    ["etl:apiUrl", "https://etl.example.com/?x=1", "etl:apiUrl must not have a query or fragment"],
    ["etl:accountId", "acme/data", "etl:accountId must be one URL path segment"],
    ["etl:apiKey", "has:colon", "etl:apiKey must not contain ':' or whitespace"],
  ])("rejects %s = %j", (key, value, expected) => {
    expect(errorOf({ ...good, [key]: value })).toContain(expected);
  });

  it("never repeats the API key in an error", () => {
    const secret = "super secret:key";
    expect(errorOf({ ...good, "etl:apiKey": secret })).not.toContain(secret);
  });
});
