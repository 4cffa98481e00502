/**
 * Run in each test worker before its files (vitest's `setupFiles`). The Node.js SDK gives every
 * promise of a resource's registration the text of the stack where it was made, kept only to name a
 * promise the program leaves unresolved at its exit. The tests' inline programs run in the worker,
 * where vitest maps every stack's frames through the test files' source maps: 41,513 such texts in
 * the batched reads' file. Theirs are written as V8 writes a stack with no mapping (that file's
 * worker: 15.6 and 19.1 s of CPU before, 10.8 and 12.4 s after, two runs each); every other stack
 * (a failure's, a resource's source position) is mapped as before.
 */
const UNMAPPED = Symbol.for("pulumi-etl.test.unmappedPromiseStacks");
const PROMISE_STACKS = /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]debuggable\.js$/;

type Prepare = (error: Error, sites: NodeJS.CallSite[]) => unknown;

/** The stack's text as V8 writes it when nothing prepares it. */
const asV8Writes = (error: Error, sites: NodeJS.CallSite[]) => `${Error.prototype.toString.call(error)}${sites.map((site) => `\n    at ${site}`).join("")}`;

function installUnmappedPromiseStacks(): void {
  const mapped = Error.prepareStackTrace as (Prepare & { [UNMAPPED]?: true }) | undefined;
  if (mapped === undefined || mapped[UNMAPPED]) return;
  const prepare: Prepare & { [UNMAPPED]?: true } = (error, sites) =>
    PROMISE_STACKS.test(sites[0]?.getFileName() ?? "") ? asV8Writes(error, sites) : mapped(error, sites);
  prepare[UNMAPPED] = true;
  Error.prepareStackTrace = prepare as typeof Error.prepareStackTrace;
}

installUnmappedPromiseStacks();
