/** What programs use of each resource: its class and its types. The package exports all of it. */
export * from "./public-key";
export * from "./connection-group";
export * from "./cluster";
export * from "./job-run";
export * from "./schedule";
export * from "./hook";
export * from "./member";
export * from "./connection";
export * from "./package";
export * from "./delivery";
export * from "./account";
export * from "./user-settings";

import type * as exported from "./index";
import type { ResourceKind } from "./registry";

// Every kind of the one list is exported as a class: a kind added to the list without its
// export fails to compile here.
true satisfies [Exclude<ResourceKind, keyof typeof exported>] extends [never] ? true : { notExported: Exclude<ResourceKind, keyof typeof exported> };
