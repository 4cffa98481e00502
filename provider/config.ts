/**
 * Provider configuration: stack config `etl:*` first, environment variables as fallbacks.
 *
 * Read in the provider process at run time (never captured into state), and by the read-only
 * functions in the program process. Every problem names the setting and the rule; the API key's
 * value never appears in a message.
 */
import { writtenWithHost } from "./urls";
import { UserFacingError } from "./errors";

export const DEFAULT_VENDOR = "service";

export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_RETRY_BUDGET_SECONDS = 120;

/** What the bare HTTP function needs: where to send, and as whom. */
export interface ConnectionSettings {
  /** The service's host URL, without the account segment, e.g. `http://127.0.0.1:4010`. */
  apiUrl: string;
  /** The account segment of every request address. */
  accountId: string;
  apiKey: string;
  /** Vendor token of the versioned media type `application/vnd.<vendor>+json; version=2`. */
  vendor: string;
  /**
   * Plain http to a host that is not loopback was explicitly accepted. Without it such a request
   * is refused before anything is sent (client/transport.ts).
   */
  allowInsecureHttp?: boolean;
}

/** How the client's policies behave: deadlines and retries. */
export interface ClientSettings {
  requestTimeoutSeconds: number;
  maxRetries: number;
  retryBudgetSeconds: number;
}

export interface ProviderConfig extends ConnectionSettings, ClientSettings {
  /** Plain http to a host that is not loopback was explicitly accepted. */
  allowInsecureHttp: boolean;
  /** The settings are not proven against the service before the first resource (settings-proof.ts). */
  skipCredentialsValidation: boolean;
}

/** Where each setting comes from: stack config key, then environment variable. */
export const SETTINGS = {
  apiUrl: { key: "etl:apiUrl", env: "ETL_API_URL", type: "string", description: "The service's address, without the account, e.g. https://api.example.com." },
  accountId: { key: "etl:accountId", env: "ETL_ACCOUNT_ID", type: "string", description: "The account the resources belong to." },
  apiKey: { key: "etl:apiKey", env: "ETL_API_KEY", secret: true, type: "string", description: "The API key of the user the provider acts as." },
  vendor: { key: "etl:vendor", env: "ETL_VENDOR", type: "string", description: `The vendor token of the media type (default "${DEFAULT_VENDOR}").` },
  requestTimeoutSeconds: {
    key: "etl:requestTimeoutSeconds",
    env: "ETL_REQUEST_TIMEOUT_SECONDS",
    type: "number",
    description: `Seconds one request may take (default ${DEFAULT_REQUEST_TIMEOUT_SECONDS}).`,
  },
  maxRetries: {
    key: "etl:maxRetries",
    env: "ETL_MAX_RETRIES",
    type: "integer",
    description: `Times a failed request is tried again (default ${DEFAULT_MAX_RETRIES}); an address that cannot be reached is tried for the retry budget instead (before the service has answered once: a refused connection for 5 s at most, other addresses 15 s; a host that does not exist, not again), and 0 turns that off too.`,
  },
  retryBudgetSeconds: {
    key: "etl:retryBudgetSeconds",
    env: "ETL_RETRY_BUDGET_SECONDS",
    type: "number",
    description: `Seconds all tries of one request may take (default ${DEFAULT_RETRY_BUDGET_SECONDS}), and how long a wait rides out an outage.`,
  },
  allowInsecureHttp: {
    key: "etl:allowInsecureHttp",
    env: "ETL_ALLOW_INSECURE_HTTP",
    type: "boolean",
    description: "Accept plain http to a host other than this machine.",
  },
  skipCredentialsValidation: {
    key: "etl:skipCredentialsValidation",
    env: "ETL_SKIP_CREDENTIALS_VALIDATION",
    type: "boolean",
    description:
      "Do not prove the address, the account and the API key with one call before the first resource (default false); a preview of an unchanged stack then makes no call at all.",
  },
} as const;

type SettingName = keyof typeof SETTINGS;

/** Looks a namespaced key (`etl:apiUrl`) up in whatever config source is at hand. */
export type ConfigLookup = (key: string) => string | undefined;

export class ConfigurationError extends UserFacingError {
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
  const client = checkClientSettings(read, problems);
  const allowInsecureHttp = checkFlag("allowInsecureHttp", read("allowInsecureHttp"), problems);
  const skipCredentialsValidation = checkFlag("skipCredentialsValidation", read("skipCredentialsValidation"), problems);
  if (problems.length > 0) {
    return { ok: false, error: new ConfigurationError(`invalid provider configuration: ${problems.join("; ")}`) };
  }
  return { ok: true, config: { apiUrl: apiUrl!, accountId: accountId!, apiKey: apiKey!, vendor, ...client, allowInsecureHttp, skipCredentialsValidation } };
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
  if (!writtenWithHost(value)) {
    return void problems.push(`${SETTINGS.apiUrl.key} must name a host after the scheme, such as https://api.example.com, got "${value}"`);
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
    return void problems.push(`${SETTINGS.accountId.key} must be one URL path segment of letters, digits, '.', '_', '~' or '-', got "${value}"`);
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

function checkClientSettings(read: (name: SettingName) => string | undefined, problems: string[]): ClientSettings {
  return {
    requestTimeoutSeconds: checkNumber("requestTimeoutSeconds", read("requestTimeoutSeconds"), DEFAULT_REQUEST_TIMEOUT_SECONDS, {
      min: 1,
      max: 3600,
      integer: false,
      problems,
    }),
    maxRetries: checkNumber("maxRetries", read("maxRetries"), DEFAULT_MAX_RETRIES, { min: 0, max: 10, integer: true, problems }),
    retryBudgetSeconds: checkNumber("retryBudgetSeconds", read("retryBudgetSeconds"), DEFAULT_RETRY_BUDGET_SECONDS, {
      min: 0,
      max: 3600,
      integer: false,
      problems,
    }),
  };
}

interface NumberRule {
  min: number;
  max: number;
  integer: boolean;
  problems: string[];
}

/** Config values arrive as strings; only plain decimal notation is accepted, so "1e3" or "0x10" are not. */
function checkNumber(name: SettingName, value: string | undefined, fallback: number, rule: NumberRule): number {
  if (value === undefined) return fallback;
  const pattern = rule.integer ? /^\d+$/ : /^\d+(\.\d+)?$/;
  const parsed = Number(value);
  if (!pattern.test(value) || parsed < rule.min || parsed > rule.max) {
    const kind = rule.integer ? "a whole number" : "a number of seconds";
    rule.problems.push(`${SETTINGS[name].key} must be ${kind} from ${rule.min} to ${rule.max}, got "${value}"`);
    return fallback;
  }
  return parsed;
}

function checkFlag(name: SettingName, value: string | undefined, problems: string[]): boolean {
  if (value === undefined) return false;
  const lowered = value.toLowerCase();
  if (lowered === "true" || lowered === "false") return lowered === "true";
  problems.push(`${SETTINGS[name].key} must be "true" or "false", got "${value}"`);
  return false;
}

/** 127.0.0.0/8, ::1 and localhost; `URL` has already normalized the host (lowercase, brackets, IPv4 forms). */
export function isLoopback(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
