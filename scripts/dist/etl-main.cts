/**
 * The release's `etl` executable (etl.cts makes it): `etl export|coverage|recover|emulator [OPTIONS]`
 * runs the package's command of that name (`etl-export`, `etl-coverage`, `etl-recover`, `etl-emulator`) with the
 * options after it; `etl --version` prints the package's version.
 */
const COMMANDS: Record<string, () => unknown> = {
  export: () => require("../../dist/provider/export/cli.js"),
  coverage: () => require("../../dist/provider/coverage/cli.js"),
  recover: () => require("../../dist/provider/recover/cli.js"),
  emulator: () => require("../../dist/emulator/cli.js"),
};

const USAGE = `usage: etl export|coverage|recover|emulator [OPTIONS]    (etl <command> --help: the command's options)
       etl --version`;
const EXIT_USAGE = 2;

function dispatch(args: string[]): void {
  const [command] = args;
  if (command === "--version") return void console.log((require("../../package.json") as { version: string }).version);
  if (command === "--help" || command === "-h") return void console.log(USAGE);
  const run = command === undefined ? undefined : COMMANDS[command];
  if (run === undefined) {
    console.error(command === undefined ? "etl: a command is required" : `etl: unknown command "${command}"`);
    console.error(USAGE);
    process.exitCode = EXIT_USAGE;
    return;
  }
  // Each command reads its options from process.argv after the program's own two entries.
  process.argv.splice(2, 1);
  run();
}

dispatch(process.argv.slice(2));
