/** One call to the emulator with a user's API key, as another tool or a person would make it. */
export const ACCEPT = "application/vnd.service+json; version=2";

export async function callWithKey(url: string, apiKey: string, method: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    headers: {
      accept: ACCEPT,
      authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
