/**
 * The service's system catalogues (facts, "System information" and "Variables"): regions,
 * stacks, time zones and system variables, as the emulator answers them and as the
 * provider may check its inputs against before sending them. The facts give the shapes, the id
 * forms and a few examples; the rest of each list, and every name and default, is the
 * emulator's choice.
 */

/** The kinds of connection whose regions `GET {host}/regions/:type` lists (facts). */
export const REGION_TYPES = ["redshift", "bigquery", "s3", "snowflake", "athena"] as const;
export type RegionType = (typeof REGION_TYPES)[number];

export interface RegionEntry {
  /** `<provider>::<region>`, e.g. `amazon-web-services::us-east-1`. */
  id: string;
  name: string;
  short_name: string;
  group_name: string;
  /** The kinds of connection the region serves. */
  types: readonly RegionType[];
  /** Whether clusters can run there: the regions `GET {base_url}/regions` lists. */
  clusters: boolean;
}

const AWS_TYPES: readonly RegionType[] = ["redshift", "s3", "athena"];

function aws(code: string, place: string, clusters = false): RegionEntry {
  return { id: `amazon-web-services::${code}`, name: `AWS ${place}`, short_name: code, group_name: "Amazon Web Services", types: AWS_TYPES, clusters };
}

function gcloud(code: string, place: string, clusters = false): RegionEntry {
  return { id: `gcloud::${code}`, name: `Google Cloud ${place}`, short_name: code, group_name: "Google Cloud", types: ["bigquery"], clusters };
}

function snowflake(code: string, place: string): RegionEntry {
  return { id: `snowflake::${code}`, name: `Snowflake ${place}`, short_name: code, group_name: "Snowflake", types: ["snowflake"], clusters: false };
}

export const REGIONS: readonly RegionEntry[] = [
  aws("us-east-1", "US East (N. Virginia)", true),
  aws("us-east-2", "US East (Ohio)"),
  aws("us-west-1", "US West (N. California)"),
  aws("us-west-2", "US West (Oregon)", true),
  aws("ca-central-1", "Canada (Central)"),
  aws("sa-east-1", "South America (São Paulo)"),
  aws("eu-west-1", "Europe (Ireland)", true),
  aws("eu-west-2", "Europe (London)"),
  aws("eu-central-1", "Europe (Frankfurt)", true),
  aws("eu-north-1", "Europe (Stockholm)"),
  aws("ap-south-1", "Asia Pacific (Mumbai)"),
  aws("ap-southeast-1", "Asia Pacific (Singapore)", true),
  aws("ap-southeast-2", "Asia Pacific (Sydney)"),
  aws("ap-northeast-1", "Asia Pacific (Tokyo)"),
  gcloud("us-central1", "Iowa (us-central1)", true),
  gcloud("us-east1", "South Carolina (us-east1)"),
  gcloud("us-west1", "Oregon (us-west1)"),
  gcloud("europe-west1", "Belgium (europe-west1)", true),
  gcloud("europe-west2", "London (europe-west2)"),
  gcloud("europe-west3", "Frankfurt (europe-west3)"),
  gcloud("asia-northeast1", "Tokyo (asia-northeast1)"),
  gcloud("asia-southeast1", "Singapore (asia-southeast1)"),
  gcloud("US", "multi-region US"),
  gcloud("EU", "multi-region EU"),
  snowflake("us-east-1", "AWS US East (N. Virginia)"),
  snowflake("us-west-2", "AWS US West (Oregon)"),
  snowflake("ca-central-1", "AWS Canada (Central)"),
  snowflake("eu-west-1", "AWS Europe (Ireland)"),
  snowflake("eu-central-1", "AWS Europe (Frankfurt)"),
  snowflake("ap-southeast-2", "AWS Asia Pacific (Sydney)"),
  { id: "soft-layer::dal05", name: "SoftLayer Dallas 05", short_name: "dal05", group_name: "SoftLayer", types: [], clusters: true },
];

export function isRegionType(text: string): text is RegionType {
  return (REGION_TYPES as readonly string[]).includes(text);
}

/** The regions that serve connections of `type`, or every region. */
export function regionsServing(type?: RegionType): RegionEntry[] {
  return REGIONS.filter((region) => type === undefined || region.types.includes(type));
}

/** Where clusters can run, and so what `GET {base_url}/regions` lists for every account. */
export const CLUSTER_REGIONS: readonly RegionEntry[] = REGIONS.filter((region) => region.clusters);

export function isKnownRegion(id: string, type?: RegionType): boolean {
  return regionsServing(type).some((region) => region.id === id);
}

export interface StackEntry {
  id: string;
  name: string;
}

/** Software stacks clusters run (facts: `mint-everest`, `lime-everest`, `blue-everest`, `white-everest`). */
export const STACKS: readonly StackEntry[] = [
  { id: "mint-everest", name: "Mint Everest" },
  { id: "lime-everest", name: "Lime Everest" },
  { id: "blue-everest", name: "Blue Everest" },
  { id: "white-everest", name: "White Everest" },
];

export interface TimeZoneEntry {
  /** The friendly name the service uses as the id, e.g. `Pacific Time (US & Canada)`. */
  id: string;
  /** The id after its standard offset from GMT, as the service shows it. */
  name: string;
  /** The IANA zone it stands for, for computing local times; never part of a response. */
  iana: string;
}

function zone(offset: string, id: string, iana: string): TimeZoneEntry {
  return { id, name: `(GMT${offset}) ${id}`, iana };
}

/** Ordered by offset, then by name, as the service lists them. */
export const TIME_ZONES: readonly TimeZoneEntry[] = [
  zone("-12:00", "International Date Line West", "Etc/GMT+12"),
  zone("-10:00", "Hawaii", "Pacific/Honolulu"),
  zone("-09:00", "Alaska", "America/Juneau"),
  zone("-08:00", "Pacific Time (US & Canada)", "America/Los_Angeles"),
  zone("-07:00", "Arizona", "America/Phoenix"),
  zone("-07:00", "Mountain Time (US & Canada)", "America/Denver"),
  zone("-06:00", "Central Time (US & Canada)", "America/Chicago"),
  zone("-06:00", "Mexico City", "America/Mexico_City"),
  zone("-05:00", "Bogota", "America/Bogota"),
  zone("-05:00", "Eastern Time (US & Canada)", "America/New_York"),
  zone("-04:00", "Atlantic Time (Canada)", "America/Halifax"),
  zone("-03:00", "Brasilia", "America/Sao_Paulo"),
  zone("-03:00", "Buenos Aires", "America/Argentina/Buenos_Aires"),
  zone("+00:00", "Lisbon", "Europe/Lisbon"),
  zone("+00:00", "London", "Europe/London"),
  zone("+00:00", "UTC", "Etc/UTC"),
  zone("+01:00", "Amsterdam", "Europe/Amsterdam"),
  zone("+01:00", "Berlin", "Europe/Berlin"),
  zone("+01:00", "Madrid", "Europe/Madrid"),
  zone("+01:00", "Paris", "Europe/Paris"),
  zone("+02:00", "Athens", "Europe/Athens"),
  zone("+02:00", "Cairo", "Africa/Cairo"),
  zone("+02:00", "Jerusalem", "Asia/Jerusalem"),
  zone("+03:00", "Moscow", "Europe/Moscow"),
  zone("+04:00", "Abu Dhabi", "Asia/Dubai"),
  zone("+05:30", "New Delhi", "Asia/Kolkata"),
  zone("+08:00", "Beijing", "Asia/Shanghai"),
  zone("+08:00", "Hong Kong", "Asia/Hong_Kong"),
  zone("+08:00", "Singapore", "Asia/Singapore"),
  zone("+09:00", "Seoul", "Asia/Seoul"),
  zone("+09:00", "Tokyo", "Asia/Tokyo"),
  zone("+10:00", "Sydney", "Australia/Sydney"),
  zone("+12:00", "Auckland", "Pacific/Auckland"),
];

export function isKnownTimeZone(id: string): boolean {
  return TIME_ZONES.some((entry) => entry.id === id);
}

/**
 * System variables and their defaults (facts, "Variables": the names). Values are what a package
 * gets unless it overrides them: numbers, or expressions evaluated at run time, in which a text
 * literal carries single quotes (`'UTC'`).
 */
export const SYSTEM_VARIABLES: Readonly<Record<string, number | string>> = {
  _MAX_COMBINED_SPLIT_SIZE: 268_435_456,
  _BYTES_PER_REDUCER: 1_073_741_824,
  _LINE_RECORD_READER_MAX_LENGTH: 1_048_576,
  _DEFAULT_TIMEZONE: "'UTC'",
  _DEFAULT_PARALLELISM: "(int)$_CLUSTER_NODES_COUNT * 2",
  _SHUFFLE_INPUT_BUFFER_PERCENT: 0.7,
  _COPY_PARALLELISM: "(int)$_CLUSTER_NODES_COUNT * 4",
  _COPY_TARGET_PARTITIONS: 0,
  _COPY_TARGET_SIZE: 0,
  _PARQUET_COMPRESSION: "'SNAPPY'",
  _PARQUET_PAGE_SIZE: 1_048_576,
  _PARQUET_BLOCK_SIZE: 134_217_728,
};
