/**
 * Provider configuration: stack config `etl:*` first, environment variables as fallbacks.
 *
 * Read in the provider process at run time (never captured into state), and by the read-only
 * functions in the program process. Every problem names the setting and the rule; the API key's
 * value never appears in a message.
 */

export const DEFAULT_VENDOR = "service";

export interface ProviderConfig {
  /** The service's host URL, without the account segment, e.g. `http://127.0.0.1:4010`. */
  apiUrl: string;
  /** The account segment of every request address. */
  accountId: string;
  apiKey: string;
  /** Vendor token of the versioned media type `application/vnd.<vendor>+json; version=2`. */
  vendor: string;
}

/** Where each setting comes from: stack config key, then environment variable. */
export const SETTINGS = {
  apiUrl: { key: "etl:apiUrl", env: "ETL_API_URL" },
  accountId: { key: "etl:accountId", env: "ETL_ACCOUNT_ID" },
  apiKey: { key: "etl:apiKey", env: "ETL_API_KEY", secret: true },
  vendor: { key: "etl:vendor", env: "ETL_VENDOR" },
} as const;

type SettingName = keyof typeof SETTINGS;

/** Looks a namespaced key (`etl:apiUrl`) up in whatever config source is at hand. */
export type ConfigLookup = (key: string) => string | undefined;

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

export type ConfigResult = { ok: true; config: ProviderConfig } | { ok: false; error: ConfigurationError };

export function resolveConfig(lookup: ConfigLookup, env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const problems: string[] = [];
  const read = (name: SettingName): string | undefined => {
    const { key, env: variable } = SETTINGS[name];
    const value = lookup(key) ?? env[variable];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };
  const apiUrl = checkApiUrl(read("apiUrl"), problems);
  const accountId = checkAccountId(read("accountId"), problems);
  const apiKey = checkApiKey(read("apiKey"), problems);
  const vendor = checkVendor(read("vendor") ?? DEFAULT_VENDOR, problems);
  if (problems.length > 0) {
    return { ok: false, error: new ConfigurationError(`invalid provider configuration: ${problems.join("; ")}`) };
  }
  return { ok: true, config: { apiUrl: apiUrl!, accountId: accountId!, apiKey: apiKey!, vendor } };
}

function missing(name: SettingName): string {
  const { key, env } = SETTINGS[name];
  const secret = "secret" in SETTINGS[name] ? " --secret" : "";
  return `${key} is not set (run \`pulumi config set${secret} ${key} <value>\` or set ${env})`;
}

function checkApiUrl(value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return void problems.push(missing("apiUrl"));
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return void problems.push(`${SETTINGS.apiUrl.key} must be an absolute URL such as https://api.example.com, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return void problems.push(`${SETTINGS.apiUrl.key} must use http or https, got "${url.protocol.replace(/:$/, "")}"`);
  }
  if (url.username || url.password) {
    return void problems.push(`${SETTINGS.apiUrl.key} must not carry credentials; use ${SETTINGS.apiKey.key}`);
  }
  if (url.search || url.hash) {
    return void problems.push(`${SETTINGS.apiUrl.key} must not have a query or fragment, got "${value}"`);
  }
  return url.toString().replace(/\/+$/, "");
}

const ACCOUNT_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

function checkAccountId(value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return void problems.push(missing("accountId"));
  if (!ACCOUNT_SEGMENT.test(value)) {
    return void problems.push(
      `${SETTINGS.accountId.key} must be one URL path segment of letters, digits, '.', '_', '~' or '-', got "${value}"`,
    );
  }
  return value;
}

function checkApiKey(value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return void problems.push(missing("apiKey"));
  // Basic authentication puts the key before a colon, so a colon or whitespace would corrupt it.
  if (/[:\s]/.test(value)) {
    return void problems.push(`${SETTINGS.apiKey.key} must not contain ':' or whitespace`);
  }
  return value;
}

function checkVendor(value: string, problems: string[]): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(value)) {
    problems.push(`${SETTINGS.vendor.key} must be a media-type token of letters, digits, '.' or '-', got "${value}"`);
  }
  return value;
}
