/**
 * A job's `creator` when a record other than a user started it (facts: a schedule's jobs name
 * it; so do a delivery's). A deleted creator is still named by its id, with an empty name.
 */
export interface CreatorRecord {
  type: string;
  id: number;
  name: string | undefined;
  url: string;
  htmlUrl: string;
}

export function creatorJson(creator: CreatorRecord): Record<string, unknown> {
  return { type: creator.type, id: creator.id, display_name: creator.name ?? "", url: creator.url, html_url: creator.htmlUrl };
}
