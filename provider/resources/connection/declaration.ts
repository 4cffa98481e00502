import { connectionSettingsRecord } from "../../api/connections";
import { declareResource } from "../shared/declaration";
import { SECRET_ATTRIBUTES } from "./attributes";
import { connectionExport } from "./export";
import { tableOperations } from "./fields";
import { connectionImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdConnection } from "./implementation";

/** Recovering connections: by name and type, made in the deployment's window. */
const connectionRecover: RecoverDeclaration = { by: "its name", find: createdConnection.find };

export const connectionDeclaration = declareResource({
  kind: "Connection",
  description:
    "The settings by which the service reaches a database, warehouse, bucket or service. Passwords, keys and tokens are kept encrypted and never printed.",
  notes: [
    "Naming the `type` gives that type's own attributes, typed: a TypeScript program gets an error for an attribute of another type, a missing required one, or a value of the wrong kind. A `ConnectionGroup` takes `Connection` resources in `connections` (only database and cloud-storage types can join groups):",
    "",
    "```ts",
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as etl from "pulumi-etl";',
    "",
    "const config = new pulumi.Config();",
    'const warehouse = new etl.Connection("warehouse", {',
    '  type: "postgres",',
    '  name: "warehouse",',
    '  host: "warehouse.db.example.com",',
    '  database: "analytics",',
    '  username: "etl_loader",',
    '  password: config.requireSecret("warehousePassword"),',
    "});",
    'const bucket = new etl.Connection("landing", { type: "s3", name: "landing", username: "AKIAEXAMPLE", password: config.requireSecret("bucketSecretKey") });',
    'new etl.ConnectionGroup("destinations", { name: "destinations", connections: [warehouse, bucket] });',
    "```",
    "",
    "| type | attributes (required in bold; defaults in parentheses) |",
    "|---|---|",
    '| `postgres`, `herokupostgres` | **host**, **username**, **password**, port (5432), database (""), ssl (true), tunnelType (`direct`/`reverse`) |',
    "| `mysql`, `sqlserver`, `oracle` | **host**, **username**, **password**, port (3306 / 1433 / 1521), database, ssl (false / false / true), tunnelType |",
    "| `googlecloudsql`, `googlecloudpostgres` | **host**, **username**, **password**, port (3306 / 5432), database, tunnelType |",
    "| `redshift` | **host**, **username**, **password**, **region**, port (5439), database, ssl (false), tunnelType |",
    "| `snowflake` | **accountName**, **username**, **password**, **database**, **warehouse**, **region** (`snowflake::us-east-1`), tunnelType |",
    "| `bigquery` | **host** (the project id), **region**, database (the dataset) |",
    "| `athena` | **username** (access key id), **password** (secret key), **s3StagingDir**, **region**, database, tunnelType |",
    "| `mongo` | **host**, **database**, username, password, port (27017), ssl (false), readPreference (`primary`), authenticationDatabase, tunnelType |",
    "| `s3` | **username** (access key id), **password** (secret key), region (`us-east-1`) |",
    "| `gs` | **projectId** |",
    "| `azureblobstorage` | **username** (storage account), **password** (access key) |",
    "| `sftp` | **host**, **username**, password, port (22), authMethod (`password`/`key`) |",
    "| `hdfs` | **nameNodeHost**, **httpfsHost**, nameNodePort, httpfsPort (14000), username |",
    "| `salesforce` | **environment** (`production`/`sandbox`), **password** (the access token) unless `code` is given, username, refreshToken, uid, expiresAt, code with **redirectUri** |",
    "| `analytics`, `adwords`, `bingads`, `web_analytics`, `ads_platform`, `crm_platform` | as `salesforce`, without `environment` |",
    "",
    "The outputs are the inputs as the service has them (defaults filled in). `password`, `refreshToken` and `code` are stored only encrypted in the state, even when the program passes plain strings, and never printed. The service never returns them, so the resource keeps them as it last sent them: a new password in the program updates the connection with a PUT of the password alone, while `refresh` cannot see a password changed elsewhere (run `up` with the right one to put it back); every other attribute changed out of band is found by `refresh` and undone by `up`.",
    "",
    "When the service's test of the settings fails, `up` fails with its reason (`Could not connect to db.invalid:5432: ...`) and creates nothing.",
  ],
  implementation: connectionImplementation,
  recover: connectionRecover,
  export: connectionExport,
  tableOperations,
  record: connectionSettingsRecord,
  secrets: SECRET_ATTRIBUTES,
  example: {
    type: "postgres",
    name: "warehouse",
    host: "db.example.com",
    database: "analytics",
    username: "etl_loader",
    password: { secretConfig: "warehousePassword" },
  },
});

export type { ConnectionArgs, ConnectionArgsOf, CommonConnectionArgs, ConnectionOutputs } from "./fields";
export type { ConnectionType } from "../../../contract/connection-types";
