/** The name under which the release's executable carries the program runtime's bundle (scripts/dist/plugin.cts writes it, construct.ts reads it). */
export const PROGRAM_RUNTIME_ASSET = "program-runtime.cjs";
