/**
 * The main job (`npm run quickstart`): starts the local ETL service, runs `pulumi up` of the
 * project in Pulumi.yaml (examples/quickstart) against it on the local file backend, prints the
 * stack outputs, then destroys the stack and stops the service.
 * Runs under scripts/setup.sh, which provides Node.js 22, the engine and the offline settings.
 */
const path: typeof import("node:path") = require("node:path");
const { randomBytes }: typeof import("node:crypto") = require("node:crypto");
const automation: typeof import("@pulumi/pulumi/automation") = require("@pulumi/pulumi/automation");
const { startEmulator }: typeof import("pulumi-etl/emulator") = require("pulumi-etl/emulator");

const REPO_ROOT = path.resolve(__dirname, "..");
const STACK = "quickstart";
const SPEED = 10;

const print = (text: string) => process.stdout.write(text);
const say = (text: string) => print(`\n[quickstart] ${text}\n`);

async function openStack(): Promise<import("@pulumi/pulumi/automation").Stack> {
  const root = process.env.PULUMI_ETL_ENGINE_ROOT;
  if (!root) throw new Error("PULUMI_ETL_ENGINE_ROOT is not set: run this with `npm run quickstart`");
  const pulumiCommand = await automation.PulumiCommand.get({ root });
  const workspace = await automation.LocalWorkspace.create({ workDir: REPO_ROOT, pulumiCommand });
  // A stack left by an interrupted run points at a service that no longer exists: start afresh.
  if ((await workspace.listStacks()).some((s) => s.name === STACK)) {
    await workspace.removeStack(STACK, { force: true });
  }
  return automation.Stack.create(STACK, workspace);
}

async function main(): Promise<void> {
  // Cluster start-up and the package's run take about a minute in real time; ten times faster here.
  const service = await startEmulator({ port: 0, speed: SPEED });
  const account = service.accounts[0]!;
  say(`local ETL service listening on ${service.url} (account "${account.uid}", lifecycles ${SPEED}x faster)`);
  const stack = await openStack();
  try {
    await stack.setAllConfig({
      "etl:apiUrl": { value: service.url },
      "etl:accountId": { value: account.uid },
      "etl:apiKey": { value: account.apiKey, secret: true },
      // The project's own secrets: any value reaches the emulator.
      "etl-quickstart:warehousePassword": { value: randomBytes(12).toString("base64url"), secret: true },
      "etl-quickstart:bucketSecretKey": { value: randomBytes(30).toString("base64url"), secret: true },
    });
    say("pulumi up");
    const up = await stack.up({ onOutput: print });
    say("stack outputs");
    const width = Math.max(...Object.keys(up.outputs).map((name) => name.length));
    for (const [name, output] of Object.entries(up.outputs)) {
      print(`  ${name.padEnd(width)}  ${output.secret ? "[secret]" : JSON.stringify(output.value)}\n`);
    }
  } finally {
    say("tearing down: pulumi destroy, then removing the stack and stopping the service");
    await stack.destroy({ onOutput: print });
    await stack.workspace.removeStack(STACK);
    await service.close();
  }
  say("done");
}

main().catch((error: unknown) => {
  // Engine failures carry the CLI's full output, already streamed above.
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  process.stderr.write(`\n[quickstart] failed: ${message}\n`);
  process.exit(1);
});
