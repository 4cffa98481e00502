/**
 * What a program may pass to `Connection`, checked by the compiler itself: `args.types.ts`
 * holds programs that must compile and, under `@ts-expect-error`, ones that must not. Any
 * diagnostic (including an expected error that did not happen) fails.
 */
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

it("gives each connection type its own attributes, as the compiler sees them", () => {
  const file = join(__dirname, "args.types.ts");
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  expect(diagnostics).toEqual([]);
}, 60_000);
