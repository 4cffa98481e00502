/**
 * The connection types the service knows and what each one's create takes (facts, "Connections":
 * "Connection types and create attributes"). Attributes are named as the API names them; `name`
 * is required for every type and is not repeated here. A type's kind says what its connections
 * are good for: database and cloud-storage connections can join connection groups (spec 2.7),
 * and each listing kind answers its own listing (spec 4.6 to 4.8; the spec's neutral words
 * `web_analytics`, `ads_platform` and `crm_platform` are types of their own as well).
 *
 * Chosen where the facts say *undocumented*: a connection's record echoes its non-secret
 * attributes (with the defaults applied); secret attributes (passwords, keys, tokens) are
 * accepted and appear in no response.
 */

export interface ConnectionAttribute {
  readonly kind: "string" | "integer" | "boolean";
  readonly required?: true;
  /** What the service stores when the create leaves the attribute out. */
  readonly default?: string | number | boolean;
  /** Accepted, never returned. */
  readonly secret?: true;
  /** The only values taken, when the attribute is an enumeration. */
  readonly values?: readonly string[];
  /** Required unless this other attribute is given (an OAuth code instead of a token). */
  readonly requiredUnless?: string;
  /** Required when this other attribute is given. */
  readonly requiredWith?: string;
}

export const CONNECTION_KINDS = ["database", "cloud_storage", "web_analytics", "ads_platform", "crm_platform"] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export interface ConnectionTypeRule {
  /** Shown in the types catalogue. */
  readonly name: string;
  readonly description: string;
  readonly kind: ConnectionKind;
  readonly attributes: Readonly<Record<string, ConnectionAttribute>>;
  /**
   * The attribute that says where the connection reaches (a host, an account, a project, a
   * bucket), when it has one; OAuth services are reached at the service's own address.
   */
  readonly address?: string;
}

const TUNNEL = { tunnel_type: { kind: "string", values: ["direct", "reverse"], default: "direct" } } as const;
const CREDENTIALS = {
  username: { kind: "string", required: true },
  password: { kind: "string", required: true, secret: true },
} as const;
const REGION = { region: { kind: "string", required: true } } as const;

function sql<const Port extends number>(port: Port) {
  return {
    ...CREDENTIALS,
    host: { kind: "string", required: true },
    port: { kind: "integer", default: port },
    database: { kind: "string", default: "" },
    ...TUNNEL,
  } as const;
}

function sqlWithSsl<const Port extends number, const Ssl extends boolean>(port: Port, ssl: Ssl) {
  return { ...sql(port), ssl: { kind: "boolean", default: ssl } } as const;
}

/** OAuth-style services: an access token, or an OAuth code with the address it was issued for. */
const OAUTH = {
  password: { kind: "string", secret: true, requiredUnless: "code" },
  username: { kind: "string" },
  refresh_token: { kind: "string", secret: true },
  uid: { kind: "string" },
  expires_at: { kind: "string" },
  code: { kind: "string", secret: true },
  redirect_uri: { kind: "string", requiredWith: "code" },
} as const;

function database<const A, const Address extends keyof A & string>(name: string, description: string, address: Address, attributes: A) {
  return { name, description, kind: "database", address, attributes } as const;
}
function storage<const A, const Address extends keyof A & string>(name: string, description: string, address: Address | undefined, attributes: A) {
  return { name, description, kind: "cloud_storage", attributes, ...(address === undefined ? {} : { address }) } as const;
}
function service<const K extends ConnectionKind, const A>(name: string, kind: K, attributes: A) {
  return { name, description: `${name}, through an OAuth access token`, kind, attributes } as const;
}

export const CONNECTION_TYPE_RULES = {
  postgres: database("PostgreSQL", "A PostgreSQL database", "host", sqlWithSsl(5432, true)),
  mysql: database("MySQL", "A MySQL database", "host", sqlWithSsl(3306, false)),
  sqlserver: database("Microsoft SQL Server", "A SQL Server database", "host", sqlWithSsl(1433, false)),
  oracle: database("Oracle", "An Oracle database", "host", sqlWithSsl(1521, true)),
  herokupostgres: database("Heroku Postgres", "A PostgreSQL database on Heroku", "host", sqlWithSsl(5432, true)),
  googlecloudsql: database("Google Cloud SQL (MySQL)", "A MySQL database on Google Cloud SQL", "host", sql(3306)),
  googlecloudpostgres: database("Google Cloud SQL (PostgreSQL)", "A PostgreSQL database on Google Cloud SQL", "host", sql(5432)),
  redshift: database("Amazon Redshift", "An Amazon Redshift warehouse", "host", { ...sqlWithSsl(5439, false), ...REGION }),
  snowflake: database("Snowflake", "A Snowflake warehouse", "account_name", {
    account_name: { kind: "string", required: true },
    ...CREDENTIALS,
    database: { kind: "string", required: true },
    warehouse: { kind: "string", required: true },
    ...REGION,
    ...TUNNEL,
  }),
  bigquery: database("Google BigQuery", "A BigQuery project (host) and dataset (database)", "host", {
    host: { kind: "string", required: true },
    ...REGION,
    database: { kind: "string", default: "" },
  }),
  athena: database("Amazon Athena", "Amazon Athena, with an access key and a staging bucket", "s3_staging_dir", {
    ...CREDENTIALS,
    s3_staging_dir: { kind: "string", required: true },
    ...REGION,
    database: { kind: "string", default: "" },
    ...TUNNEL,
  }),
  mongo: database("MongoDB", "A MongoDB database", "host", {
    host: { kind: "string", required: true },
    database: { kind: "string", required: true },
    username: { kind: "string" },
    password: { kind: "string", secret: true },
    port: { kind: "integer", default: 27017 },
    ssl: { kind: "boolean", default: false },
    read_preference: { kind: "string", values: ["primary", "primaryPreferred", "secondary", "secondaryPreferred", "nearest"], default: "primary" },
    authentication_database: { kind: "string", default: "" },
    ...TUNNEL,
  }),
  s3: storage("Amazon S3", "Amazon S3 buckets, with an access key id (username) and secret key (password)", undefined, {
    ...CREDENTIALS,
    region: { kind: "string", default: "us-east-1" },
  }),
  gs: storage("Google Cloud Storage", "Google Cloud Storage buckets of one project", "project_id", {
    project_id: { kind: "string", required: true },
  }),
  azureblobstorage: storage("Azure Blob Storage", "Azure Blob Storage, with the storage account (username) and an access key (password)", "username", {
    ...CREDENTIALS,
  }),
  sftp: storage("SFTP", "An SFTP server, by password or by the account's key", "host", {
    username: { kind: "string", required: true },
    host: { kind: "string", required: true },
    password: { kind: "string", secret: true },
    port: { kind: "integer", default: 22 },
    auth_method: { kind: "string", values: ["password", "key"], default: "password" },
  }),
  hdfs: storage("HDFS", "A Hadoop file system, through its name node and HttpFS", "name_node_host", {
    name_node_host: { kind: "string", required: true },
    httpfs_host: { kind: "string", required: true },
    name_node_port: { kind: "integer" },
    httpfs_port: { kind: "integer", default: 14000 },
    username: { kind: "string" },
  }),
  salesforce: service("Salesforce", "crm_platform", {
    ...OAUTH,
    environment: { kind: "string", required: true, values: ["production", "sandbox"] },
  }),
  analytics: service("Google Analytics", "web_analytics", OAUTH),
  adwords: service("Google Ads", "ads_platform", OAUTH),
  bingads: service("Microsoft Advertising", "ads_platform", OAUTH),
  web_analytics: service("Web analytics", "web_analytics", OAUTH),
  ads_platform: service("Ads platform", "ads_platform", OAUTH),
  crm_platform: service("CRM platform", "crm_platform", OAUTH),
} as const satisfies Record<string, ConnectionTypeRule>;

export type ConnectionType = keyof typeof CONNECTION_TYPE_RULES;

export const CONNECTION_TYPE_NAMES = Object.keys(CONNECTION_TYPE_RULES) as ConnectionType[];

export function isConnectionType(type: string): type is ConnectionType {
  return Object.hasOwn(CONNECTION_TYPE_RULES, type);
}

/** A type's attributes by their API names, looked up by name. */
export function connectionAttributes(type: ConnectionType): Readonly<Record<string, ConnectionAttribute>> {
  return CONNECTION_TYPE_RULES[type].attributes;
}

/** Every attribute name any type takes, for tables that hold all of them. */
export const CONNECTION_ATTRIBUTE_NAMES: readonly string[] = [...new Set(Object.values(CONNECTION_TYPE_RULES).flatMap((rule) => Object.keys(rule.attributes)))];

/** The attributes that are never returned, whatever the type. */
export const SECRET_CONNECTION_ATTRIBUTES: readonly string[] = CONNECTION_ATTRIBUTE_NAMES.filter((name) =>
  CONNECTION_TYPE_NAMES.some((type) => connectionAttributes(type)[name]?.secret),
);

/** The catalogue's groups (facts: `services`, `analytical`): what the type is for. */
export function connectionTypeGroups(kind: ConnectionKind): { group_type: string; group_name: string }[] {
  if (kind === "database") return [{ group_type: "analytical", group_name: "Databases and warehouses" }];
  if (kind === "cloud_storage") return [{ group_type: "analytical", group_name: "Cloud storage" }];
  return [{ group_type: "services", group_name: "Services" }];
}

/**
 * Why the attributes of a create of this type are refused, one message per attribute
 * (`host is required`, ...), empty when they are fine. Types of values are checked by the caller;
 * this is the per-type part both sides share.
 */
export function connectionAttributeProblems(type: ConnectionType, given: Readonly<Record<string, unknown>>): { attribute: string; message: string }[] {
  const attributes = connectionAttributes(type);
  const problems: { attribute: string; message: string }[] = [];
  const has = (name: string) => given[name] !== undefined && given[name] !== null;
  const address = (CONNECTION_TYPE_RULES[type] as ConnectionTypeRule).address;
  for (const [name, rule] of Object.entries(attributes)) {
    const value = given[name];
    const needed = rule.required || rule.requiredUnless !== undefined;
    // Nothing can reach a blank address, nor log in with a blank credential: refused as the settings test would.
    if (typeof value === "string" && value.trim() === "" && (needed || name === address)) {
      problems.push({ attribute: name, message: "must not be blank" });
      continue;
    }
    if (typeof value === "string" && name === address && /\s/.test(value)) {
      problems.push({ attribute: name, message: "must not contain spaces: it says where the connection reaches" });
      continue;
    }
    if (rule.required && !has(name)) problems.push({ attribute: name, message: `is required for ${type} connections` });
    if (rule.requiredUnless !== undefined && !has(name) && !has(rule.requiredUnless)) {
      problems.push({ attribute: name, message: `is required for ${type} connections unless ${rule.requiredUnless} is given` });
    }
    if (rule.requiredWith !== undefined && !has(name) && has(rule.requiredWith)) {
      problems.push({ attribute: name, message: `is required for ${type} connections when ${rule.requiredWith} is given` });
    }
    if (rule.values !== undefined && has(name) && !rule.values.includes(String(given[name]))) {
      problems.push({ attribute: name, message: `must be one of ${rule.values.join(", ")}` });
    }
  }
  return problems;
}
