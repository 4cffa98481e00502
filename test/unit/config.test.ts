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
      config: {
        apiUrl: "http://127.0.0.1:4010",
        accountId: "acme-data",
        apiKey: "k3y",
        vendor: "service",
        requestTimeoutSeconds: 30,
        maxRetries: 4,
        retryBudgetSeconds: 120,
        allowInsecureHttp: false,
        skipCredentialsValidation: false,
      },
    });
  });

  it("reads the client settings from stack config, then the environment", () => {
    const values = { ...good, "etl:requestTimeoutSeconds": "12.5", "etl:maxRetries": "0" };
    const env = { ETL_RETRY_BUDGET_SECONDS: "30", ETL_MAX_RETRIES: "7", ETL_ALLOW_INSECURE_HTTP: "TRUE", ETL_SKIP_CREDENTIALS_VALIDATION: "true" };
    const result = resolveConfig(lookupOf(values), env);
    expect(result.ok && result.config).toMatchObject({
      requestTimeoutSeconds: 12.5,
      maxRetries: 0,
      retryBudgetSeconds: 30,
      allowInsecureHttp: true,
      skipCredentialsValidation: true,
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
    ["etl:apiUrl", "https:///etl.example.com", 'etl:apiUrl must name a host after the scheme, such as https://api.example.com, got "https:///etl.example.com"'],
    ["etl:apiUrl", "https:/etl.example.com", "etl:apiUrl must name a host after the scheme"],
    ["etl:apiUrl", "https://etl.example.com/?x=1", "etl:apiUrl must not have a query or fragment"],
    ["etl:accountId", "acme/data", "etl:accountId must be one URL path segment"],
    ["etl:apiKey", "has:colon", "etl:apiKey must not contain ':' or whitespace"],
    ["etl:requestTimeoutSeconds", "0", 'etl:requestTimeoutSeconds must be a number of seconds from 1 to 3600, got "0"'],
    ["etl:requestTimeoutSeconds", "3601", "etl:requestTimeoutSeconds must be a number of seconds from 1 to 3600"],
    ["etl:requestTimeoutSeconds", "ten", 'etl:requestTimeoutSeconds must be a number of seconds from 1 to 3600, got "ten"'],
    ["etl:requestTimeoutSeconds", "1e3", "etl:requestTimeoutSeconds must be a number of seconds"],
    ["etl:maxRetries", "-1", 'etl:maxRetries must be a whole number from 0 to 10, got "-1"'],
    ["etl:maxRetries", "2.5", "etl:maxRetries must be a whole number from 0 to 10"],
    ["etl:maxRetries", "11", "etl:maxRetries must be a whole number from 0 to 10"],
    ["etl:retryBudgetSeconds", "-5", 'etl:retryBudgetSeconds must be a number of seconds from 0 to 3600, got "-5"'],
    ["etl:retryBudgetSeconds", "7200", "etl:retryBudgetSeconds must be a number of seconds from 0 to 3600"],
    ["etl:allowInsecureHttp", "yes", 'etl:allowInsecureHttp must be "true" or "false", got "yes"'],
  ])("rejects %s = %j", (key, value, expected) => {
    expect(errorOf({ ...good, [key]: value })).toContain(expected);
  });

  it("never repeats the API key in an error", () => {
    const secret = "super secret:key";
    expect(errorOf({ ...good, "etl:apiKey": secret })).not.toContain(secret);
  });
});

describe("plain http", () => {
  it.each(["http://127.0.0.1:4010", "http://127.8.9.10", "http://localhost:4010", "http://[::1]:4010", "https://etl.example.com"])(
    "is accepted for %s",
    (apiUrl) => {
      expect(resolveConfig(lookupOf({ ...good, "etl:apiUrl": apiUrl }), {}).ok).toBe(true);
    },
  );

  // The request function refuses it before sending, naming the scheme only once the host answers (client.test.ts).
  it.each(["http://etl.example.com", "http://etl-typo.invalid", "http://10.0.0.5:4010", "http://128.0.0.1", "http://localhost.example.com"])(
    "to %s is left to the first request, which alone can tell a mistyped host from a plain-http one",
    (apiUrl) => {
      const result = resolveConfig(lookupOf({ ...good, "etl:apiUrl": apiUrl }), {});
      expect(result.ok && result.config).toMatchObject({ apiUrl, allowInsecureHttp: false });
    },
  );

  it("is accepted for any host with etl:allowInsecureHttp or ETL_ALLOW_INSECURE_HTTP", () => {
    const insecure = { ...good, "etl:apiUrl": "http://etl.example.com" };
    const allowed = (values: Record<string, string>, env: NodeJS.ProcessEnv) => {
      const result = resolveConfig(lookupOf(values), env);
      return result.ok && result.config.allowInsecureHttp;
    };
    expect(allowed({ ...insecure, "etl:allowInsecureHttp": "true" }, {})).toBe(true);
    expect(allowed(insecure, { ETL_ALLOW_INSECURE_HTTP: "true" })).toBe(true);
    expect(allowed({ ...insecure, "etl:allowInsecureHttp": "false" }, { ETL_ALLOW_INSECURE_HTTP: "true" })).toBe(false);
  });
});
