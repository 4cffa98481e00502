/** HTTP Basic authentication with the API key as the username and an empty password (spec 5). */
export function basicAuthorization(apiKey: string): string {
  return `Basic ${Buffer.from(`${apiKey}:`, "utf8").toString("base64")}`;
}
