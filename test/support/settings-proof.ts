/**
 * The provider's proof of its settings as a program of any language meets it at `pulumi preview`:
 * a wrong key, and the key of a user of another account, fail the preview with one call and one
 * error, on the provider, naming the settings and the account, never the key (the programs declare
 * a `Pipeline`, a component the plugin constructs); `etl:skipCredentialsValidation` brings the
 * preview of an unchanged stack back to no call of the provider.
 */
import { expect } from "vitest";
import { withoutIdleInterrupts } from "./python-interrupt";
import type { Stack } from "@pulumi/pulumi/automation";
import { failureOf } from "./engine";
import type { UserMachine } from "./release";
import { SETTINGS_PROOF_CALL, type Emulator } from "./service";

/** An account the test account's users are not members of, with a user of its own. */
export const ELSEWHERE_ACCOUNT = {
  id: 8,
  uid: "elsewhere-team",
  users: [{ id: 80, name: "Other User", email: "other@example.com", apiKey: `elsewhere-user-key-${process.pid}` }],
};

export { SETTINGS_PROOF_CALL as SETTINGS_PROOF } from "./service";

/** A stack of the program, however it is driven (the Automation API, or the CLI in a folder). */
export interface PreviewedStack {
  /** Resolves when the preview passes, with no change proposed. */
  previewUnchanged(): Promise<void>;
  /** The text of the preview's failure. */
  previewFailure(): Promise<string>;
  setConfig(key: string, value: string, secret?: boolean): Promise<void>;
  removeConfig(key: string): Promise<void>;
  /**
   * A Python program, which the engine may interrupt (python-interrupt.ts): when the settings'
   * failure stops the deployment, the program is still waiting for its registrations.
   */
  readonly python?: boolean;
}

const WRONG_KEY = "wrong-key-5d1c7e";

/** What a failure must not add to its cause: a transport error, or a language host's traceback. */
const NOISE = /grpc:|client connection is closing|Traceback|KeyboardInterrupt/;

/** The errors listed under an operation's first "Diagnostics:" heading, each with the resource it is reported on. */
export function diagnosedErrors(output: string): Array<{ resource: string; error: string }> {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => line.trim() === "Diagnostics:");
  if (start < 0) return [];
  const errors: Array<{ resource: string; error: string }> = [];
  let resource = "";
  for (const line of lines.slice(start + 1)) {
    if (line.trim() !== "" && !line.startsWith(" ")) break;
    const heading = /^ {2}(\S.*):$/.exec(line);
    if (heading) resource = heading[1]!;
    const error = /^ {4}error: (.*)$/.exec(line);
    if (error) errors.push({ resource, error: error[1]! });
  }
  return errors;
}

/**
 * A failure of the settings' proof, told once: one error, saying `said`, reported on a resource
 * `on` matches (the plugin's provider), and nothing else printed of it, neither a component's
 * transport error nor a language host's traceback (stdout and stderr, as `output` holds them).
 * For a Python program, the traceback of the engine's interrupt of the idle program, which the
 * engine prints or not as its output is drained, is its own and is set aside; any other stays.
 */
export function expectSettingsErrorOnce(output: string, said: RegExp, on: RegExp = /^pulumi:providers:etl \(/, python = false): void {
  const told = python ? withoutIdleInterrupts(output).output : output;
  expect(told, told).not.toMatch(NOISE);
  const errors = diagnosedErrors(output).filter((error) => !isEnginesStopOfGoProgram(error, output));
  expect(errors, output).toHaveLength(1);
  expect(errors[0]!.error).toMatch(said);
  expect(errors[0]!.resource).toMatch(on);
}

/**
 * From v3.276.0 the engine ends a deployment on an error without answering a Go program's pending
 * registrations, and the program reports on the stack how its wait ended: cancelled, the resource
 * monitor shut down, or the monitor's port already closed, as the engine's shutdown goes. That is
 * the engine's own stop, not a second failure. Only those exact reports, on the stack, are set
 * aside.
 */
const GO_PROGRAM_STOPPED = new RegExp(
  [
    "error: an unhandled error occurred: program failed:\n    waiting for RPCs: rpc error: code = (?:",
    "Canceled desc = context canceled",
    "|Unavailable desc = resource monitor shut down while waiting on step's done channel",
    '|Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127\\.0\\.0\\.1:\\d+: connect: connection refused"',
    ")\n",
  ].join(""),
);

function isEnginesStopOfGoProgram(error: { resource: string; error: string }, output: string): boolean {
  return /^pulumi:pulumi:Stack /.test(error.resource) && error.error === "an unhandled error occurred: program failed:" && GO_PROGRAM_STOPPED.test(output);
}

const WRONG_KEY_REFUSED =
  /the service refused the API key for account "acme-test" at \S+ \(401 Unauthorized\): etl:apiKey \(or ETL_API_KEY\) is wrong or revoked, or it is not the key for etl:accountId "acme-test"/;
const ELSEWHERE_REFUSED =
  /account "acme-test" at \S+ is not one the API key's user can reach \(404 Not Found\): etl:accountId names an account that does not exist \(renamed or deleted\?\), or etl:apiKey is the key of a user who is not a member of it/;

/** The preview with `apiKey` fails with the proof's one call and its one error, `said`, never showing the key; the stack's key is then set back. */
async function expectRefusedAtPreview(service: Emulator, stack: PreviewedStack, apiKey: string, said: RegExp): Promise<void> {
  await stack.setConfig("etl:apiKey", apiKey, true);
  try {
    await service.resetRequests();
    const failure = await stack.previewFailure();
    expectSettingsErrorOnce(failure, said, undefined, stack.python);
    expect(failure).not.toContain(apiKey);
    expect(await service.allCalls()).toEqual([SETTINGS_PROOF_CALL]);
  } finally {
    await stack.setConfig("etl:apiKey", service.apiKey, true);
  }
}

/** A wrong key fails the preview with one call and one error, on the provider. */
export function expectWrongKeyRefusedOnce(service: Emulator, stack: PreviewedStack): Promise<void> {
  return expectRefusedAtPreview(service, stack, WRONG_KEY, WRONG_KEY_REFUSED);
}

/**
 * `ignored`: calls of the program's own functions, which are not the provider's to spare;
 * `unproven`: the calls of an unchanged preview when the proof is skipped (a stack holding public
 * keys still asks whose the key is, which the proof would have told).
 */
export async function expectSettingsProvenAtPreview(service: Emulator, stack: PreviewedStack, ignored = /^$/, unproven: string[] = []): Promise<void> {
  const calls = async () => (await service.allCalls()).filter((call) => !ignored.test(call));
  await expectWrongKeyRefusedOnce(service, stack);
  await expectRefusedAtPreview(service, stack, ELSEWHERE_ACCOUNT.users[0]!.apiKey, ELSEWHERE_REFUSED);
  await stack.setConfig("etl:skipCredentialsValidation", "true");
  try {
    await service.resetRequests();
    await stack.previewUnchanged();
    expect(await calls()).toEqual(unproven);
  } finally {
    await stack.removeConfig("etl:skipCredentialsValidation");
  }
}

/** A stack driven by the Automation API. */
export function automationStack(stack: Stack, onOutput: (text: string) => void): PreviewedStack {
  return {
    previewUnchanged: async () => void (await stack.preview({ expectNoChanges: true, onOutput })),
    previewFailure: () => failureOf(stack.preview({ onOutput })),
    setConfig: (key, value, secret = false) => stack.setConfig(key, { value, secret }),
    removeConfig: (key) => stack.removeConfig(key),
  };
}

/** A stack of a project folder, driven by the `pulumi` CLI as a user runs it. */
export function cliStack(machine: UserMachine, python = false): PreviewedStack {
  return {
    python,
    previewUnchanged: async () => void (await machine.pulumi(["preview", "--expect-no-changes"])),
    previewFailure: async () => {
      const { code, output } = await machine.pulumi(["preview"], { allowFailure: true });
      return code === 0 ? "the preview should have failed, and passed" : output;
    },
    setConfig: async (key, value, secret = false) => void (await machine.pulumi(["config", "set", ...(secret ? ["--secret"] : []), key, value])),
    removeConfig: async (key) => void (await machine.pulumi(["config", "rm", key])),
  };
}
