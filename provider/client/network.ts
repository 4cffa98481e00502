/**
 * What a network failure says about the request: whether any of it can have reached the service.
 * This is the one place that tells "not sent" from "maybe sent"; retries, messages and the
 * reconciling of creates all ask it.
 *
 * undici writes a request only once its socket is connected, and for `https` only once the TLS
 * handshake is done ('secureConnect'), so a failure to resolve the host, to connect, or to
 * agree on TLS (a certificate not trusted, a server that does not speak TLS) carries nothing.
 */

/** Why the address could not be used, for the hint of the message. */
export type Unreached = "unresolvable" | "refused" | "unroutable" | "tls";

/** Raised by the socket's `connect`: no connection, so nothing sent. Read on a connected socket, they say nothing of the kind. */
const CONNECT_FAILURES: Record<string, Unreached> = {
  ECONNREFUSED: "refused",
  EHOSTUNREACH: "unroutable",
  ENETUNREACH: "unroutable",
  EHOSTDOWN: "unroutable",
  ENETDOWN: "unroutable",
  EADDRNOTAVAIL: "unroutable",
  ETIMEDOUT: "unroutable",
};

/** Failures that can only happen before the request is written, whatever the system call. */
const BEFORE_WRITING: Record<string, Unreached> = {
  ENOTFOUND: "unresolvable",
  EAI_AGAIN: "unresolvable",
  EAI_FAIL: "unresolvable",
  EAI_NONAME: "unresolvable",
  UND_ERR_CONNECT_TIMEOUT: "unroutable",
  // The certificate checks of the handshake (OpenSSL's verify results, Node's host name check).
  ERR_TLS_CERT_ALTNAME_INVALID: "tls",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "tls",
  UNABLE_TO_GET_ISSUER_CERT: "tls",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "tls",
  DEPTH_ZERO_SELF_SIGNED_CERT: "tls",
  SELF_SIGNED_CERT_IN_CHAIN: "tls",
  CERT_HAS_EXPIRED: "tls",
  CERT_NOT_YET_VALID: "tls",
  CERT_REVOKED: "tls",
  CERT_UNTRUSTED: "tls",
  CERT_REJECTED: "tls",
  CERT_SIGNATURE_FAILURE: "tls",
  HOSTNAME_MISMATCH: "tls",
  // The handshake itself: a plain-http server on an https address, no protocol version in
  // common. Node reports OpenSSL's handshake errors as ERR_SSL_*, or as EPROTO on the write of
  // the ClientHello; both come before 'secureConnect'.
  ERR_SSL_WRONG_VERSION_NUMBER: "tls",
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: "tls",
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: "tls",
  ERR_SSL_UNSUPPORTED_PROTOCOL: "tls",
  ERR_SSL_NO_PROTOCOLS_AVAILABLE: "tls",
  ERR_SSL_PACKET_LENGTH_TOO_LONG: "tls",
  EPROTO: "tls",
};

/** Said after "check etl:apiUrl", for each way an address cannot be used. */
export const UNREACHED_HINT: Record<Unreached, string> = {
  unresolvable: "the host name does not resolve: is it spelled right, and is DNS reachable from this machine?",
  refused: "the connection was refused: nothing listens at that address, or the service is down",
  unroutable: "no route to the host, or no answer to the connection: is the address right, and the network up?",
  tls: "the TLS handshake failed: the address may not speak https, or its certificate is not trusted here",
};

export interface NetworkFailure {
  /** The system or library code (ECONNREFUSED), or the message when there is none. */
  detail: string;
  /** Set when nothing of the request can have reached the service. */
  unreached?: Unreached;
}

/** Classifies what undici threw; several attempts of one connection (IPv4 and IPv6) are one failure. */
export function classifyNetworkFailure(cause: unknown): NetworkFailure {
  const code = codeOf(cause);
  const detail = code ?? (cause instanceof Error ? cause.message : String(cause));
  const unreached = (code === undefined ? undefined : unreachedByCode(code, cause)) ?? unreachedByParts(cause);
  return unreached === undefined ? { detail } : { detail, unreached };
}

function unreachedByCode(code: string, cause: unknown): Unreached | undefined {
  if (code in BEFORE_WRITING) return BEFORE_WRITING[code];
  const syscall = (cause as { syscall?: unknown }).syscall;
  return syscall === "connect" ? CONNECT_FAILURES[code] : undefined;
}

function codeOf(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** An AggregateError of connection attempts is unreached when every attempt was. */
function unreachedByParts(cause: unknown): Unreached | undefined {
  const parts = (cause as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(parts) || parts.length === 0) return undefined;
  const kinds = parts.map((part) => classifyNetworkFailure(part).unreached);
  return kinds.every((kind) => kind !== undefined) ? kinds[0] : undefined;
}
