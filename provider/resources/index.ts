/** What programs use of each resource: its class and its types. The package exports all of it. */
export * from "./public-key";
export * from "./connection-group";
export * from "./cluster";
export * from "./job-run";
export * from "./schedule";
export * from "./hook";
export * from "./member";
export * from "./connection";
