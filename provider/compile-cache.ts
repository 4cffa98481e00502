/**
 * Imported first by each entry point of a provider process (the plugin, the dynamic resources'
 * runtime): the modules it loads after are compiled once per machine and Node.js version and
 * then started from V8's code cache on disk, rather than compiled anew by every process the
 * engine starts. Where the cache cannot be written, modules compile as they always do.
 */
import * as nodeModule from "node:module";

nodeModule.enableCompileCache?.();
