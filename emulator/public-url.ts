/**
 * The origin that links and `url` fields name, when clients reach the emulator at another
 * address than the one it listens on (a proxy, a container port mapping, a name in /etc/hosts).
 * Links are built from this and never from the request's Host header, which any client can set.
 */

export class PublicUrlError extends Error {
  override name = "PublicUrlError";
}

/** What is wrong with `text` as a public URL, or undefined when nothing is. */
function publicUrlProblem(text: string): string | undefined {
  if (!URL.canParse(text)) return "expected an absolute URL such as https://etl.example:8443";
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:") return "the scheme must be http or https";
  if (url.username !== "" || url.password !== "") return "it must not contain user information";
  // Every API path starts at the root, so a path here would not be honoured.
  if (url.pathname !== "/" || /[?#]/.test(text)) return "it must not have a path, query or fragment";
  return undefined;
}

/**
 * The origin (`scheme://host[:port]`) of `text`, or a PublicUrlError naming the setting, as
 * `name` gives it (`publicUrl`, `--public-url`), and what is wrong.
 */
export function checkPublicUrl(text: string | undefined, name: string): string | undefined {
  if (text === undefined) return undefined;
  const problem = publicUrlProblem(text);
  if (problem !== undefined) throw new PublicUrlError(`invalid ${name} "${text}": ${problem}`);
  return new URL(text).origin;
}
