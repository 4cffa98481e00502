#!/usr/bin/env node
/** The plugin's entry point; `bin/pulumi-resource-etl` runs it on Node.js 22. */
import "../compile-cache";
import { main } from "./server";

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-etl: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
