/** What an address the provider is given as text must show (the emulator applies the service's own rules). */

/**
 * `scheme://` followed by a host, as written. The WHATWG parser that `URL` follows reads
 * `https:///x` and `https:/x` as the host `x`: a missing host shows only in the text itself.
 */
export function writtenWithHost(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/\\?#@\s]/i.test(text);
}
