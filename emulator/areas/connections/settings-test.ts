import { createHash } from "node:crypto";
import { CONNECTION_TYPE_RULES, type ConnectionType, type ConnectionTypeRule } from "../../../contract/connection-types";
import type { Attributes, SecretTrace, SecretTraces } from "./model";

/**
 * Tests of settings (facts, "Connections": 200 `true`, or 400 `{"error_message": ...}`). The
 * emulator reaches nothing, so the outcome follows one rule a test can steer:
 *
 * 1. A connection whose address (its type's `address` attribute: the host, snowflake's
 *    `account_name`, gs's `project_id`, ...) is a name under the reserved top-level domain
 *    `.invalid` (RFC 6761), or `invalid` itself, cannot be reached:
 *    `Could not connect to db.invalid:5432: host not found` (the port when the type has one).
 * 2. Otherwise, a connection with a secret (password, token, OAuth code) that starts with
 *    `wrong`, in any case (`wrong-password`), is refused: `Authentication failed for user "x"`,
 *    or `Authentication failed: the credentials were refused` without a username.
 * 3. Otherwise the test passes.
 */

const UNREACHABLE_DOMAIN = "invalid";
const REFUSED_SECRET = /^wrong/i;

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** What is kept of a secret: enough for rule 2 and for telling a changed secret, never the text. */
export function secretTrace(secret: string): SecretTrace {
  return { sha256: sha256(secret), refused: REFUSED_SECRET.test(secret) };
}

/** The host of an address as people write one: `s3://bucket.invalid/dir`, `user@host:22`, `host`. */
export function hostOf(address: string): string {
  const withoutScheme = address.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  const authority = withoutScheme.split("/")[0] ?? "";
  return authority
    .slice(authority.lastIndexOf("@") + 1)
    .replace(/:\d*$/, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

function isUnreachable(host: string): boolean {
  return host === UNREACHABLE_DOMAIN || host.endsWith(`.${UNREACHABLE_DOMAIN}`);
}

/** `host` goes with `port`, `name_node_host` with `name_node_port`. */
function portOf(address: string, attributes: Attributes): number | undefined {
  const port = attributes[address.replace(/host$/, "port")];
  return address.endsWith("host") && typeof port === "number" ? port : undefined;
}

function unreachableAddress(type: ConnectionType, attributes: Attributes): string | undefined {
  const rule: ConnectionTypeRule = CONNECTION_TYPE_RULES[type];
  const value = rule.address === undefined ? undefined : attributes[rule.address];
  if (typeof value !== "string" || !isUnreachable(hostOf(value))) return undefined;
  const port = portOf(rule.address!, attributes);
  return `Could not connect to ${hostOf(value)}${port === undefined ? "" : `:${port}`}: host not found`;
}

function refusedCredentials(attributes: Attributes, secrets: SecretTraces): string | undefined {
  if (!Object.values(secrets).some((secret) => secret.refused)) return undefined;
  const username = attributes.username;
  return typeof username === "string" && username !== ""
    ? `Authentication failed for user "${username}"`
    : "Authentication failed: the credentials were refused";
}

/** Why the settings fail their test, or undefined when they pass. */
export function settingsFailure(type: ConnectionType, attributes: Attributes, secrets: SecretTraces): string | undefined {
  return unreachableAddress(type, attributes) ?? refusedCredentials(attributes, secrets);
}
