"use strict";
// Loaded into every Node.js process of a profiled operation (NODE_OPTIONS --require): the engine
// ends a provider plugin with a signal, and a process a signal ends writes no CPU profile, so
// one that has no handler of its own for it ends through process.exit instead, which writes it.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    if (process.listenerCount(signal) === 0) process.exit(0);
  });
}
