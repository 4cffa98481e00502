/**
 * What the README and the operations page say of the engine itself, held by real runs of the
 * `pulumi` CLI on both surfaces: a plain `pulumi refresh --yes` reads every object twice (the
 * preview of the refresh, then the refresh) where `--skip-preview` and `--preview-only` read once
 * (the engine's own passes, whatever the provider: shown with the dynamic resources);
 * `refresh` and `destroy` act with the API key recorded at the last `up` until an `up` or a
 * `refresh --run-program` records the new one (one that fails at a revoked key records it on the
 * dynamic resources only); and the engine's own `-v=9` trace keeps the key out (Pulumi v3.269.0
 * and later hide there the secrets it sends a provider, which older engines printed).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, pulumiCommand, type TestStack } from "../support/engine";
import { startTestEmulator, TEST_USER_ID, type Emulator } from "../support/service";
import { declare, SURFACES } from "../support/surfaces";

const OTHER_USER = { id: 71, name: "Other User", email: "other@example.com", apiKey: "engine-facts-other-key" };

interface Logged {
  method: string;
  path: string;
  userId: number | null;
}

describe("the engine's rules the docs state", { timeout: 300_000 }, () => {
  let service: Emulator;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    service = await startTestEmulator({ users: [OTHER_USER] });
  });
  afterAll(async () => {
    for (const test of stacks) test.dispose();
    await service?.emulator.close();
  });

  /** The requests since the last reset, with the user each was made as. */
  async function logged(): Promise<Logged[]> {
    const response = await fetch(`${service.url}/_emulator/requests`);
    return ((await response.json()) as Logged[]).map(({ method, path, userId }) => ({ method, path, userId }));
  }

  /** `pulumi <args>` in the stack's folder, as a user types it: the requests it made and what it printed. */
  async function cli(test: TestStack, args: string[]): Promise<{ requests: Logged[]; output: string }> {
    await service.resetRequests();
    const env = { ...process.env, ...test.stack.workspace.envVars };
    const run = await promisify(execFile)((await pulumiCommand()).command, [...args, "--stack", test.stack.name, "--non-interactive"], {
      cwd: test.workDir,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { requests: await logged(), output: run.stdout + run.stderr };
  }

  async function usersOf(operation: () => Promise<unknown>): Promise<Array<number | null>> {
    await service.resetRequests();
    await operation();
    return [...new Set((await logged()).map((request) => request.userId))];
  }

  for (const surface of SURFACES) {
    // How many passes a refresh makes is the engine's alone, whichever provider it reads with: shown on one surface.
    const passes = surface === SURFACES[0];
    it(`on the ${surface} surface: ${passes ? "refresh passes, " : ""}the recorded API key, and the verbose trace`, async () => {
      const test = await createTestStack(
        `engine-facts-${surface}`,
        async () => {
          for (const name of ["a", "b", "c"]) declare(surface, "ConnectionGroup", name, { name: `engine-facts-${surface}-${name}` });
        },
        service,
        {},
        { plugin: surface === "plugin" },
      );
      stacks.push(test);
      await test.stack.up();

      const ours = async () => {
        const groups = (await service.state()).accounts[0].connectionGroups as Array<{ name: string }>;
        return groups.map((group) => group.name).filter((name) => name.startsWith(`engine-facts-${surface}-`));
      };
      const setKey = (apiKey: string) => test.stack.setConfig("etl:apiKey", { value: apiKey, secret: true });
      const usersIn = (requests: Logged[]) => [...new Set(requests.map((request) => request.userId))];

      // A new key in the configuration: a refresh acts as the user recorded at the last up, in one
      // pass with --skip-preview or --preview-only and in two without; not even the engine's own
      // trace of what it sends a provider shows either key, though it shows that trace. (The soak,
      // test/engine/soak.test.ts, searches every other command's output for the key on both surfaces.)
      await setKey(OTHER_USER.apiKey);
      const traced = await cli(test, ["refresh", "--yes", "--skip-preview", "-v=9", "--logtostderr"]);
      const onePass = traced.requests;
      expect(onePass.filter((request) => request.path.endsWith("/connection_groups")).length).toBeGreaterThan(0);
      expect(usersIn(onePass)).toEqual([TEST_USER_ID]);
      expect(traced.output).toMatch(/Configure\(\) executing/);
      expect(traced.output).not.toContain(service.apiKey);
      expect(traced.output).not.toContain(OTHER_USER.apiKey);
      if (passes) {
        expect((await cli(test, ["refresh", "--preview-only"])).requests).toEqual(onePass);
        const twoPasses = await cli(test, ["refresh", "--yes"]);
        expect(twoPasses.requests).toEqual([...onePass, ...onePass]);
        expect(twoPasses.output).not.toContain(service.apiKey);
        expect(twoPasses.output).not.toContain(OTHER_USER.apiKey);
      }

      // An unchanged up acts with the configuration as it is, with one call (the settings' proof), and records it.
      await service.resetRequests();
      await test.stack.up();
      expect(await logged()).toEqual([{ method: "GET", path: `/accounts/${service.accountId}`, userId: OTHER_USER.id }]);

      // A revoked key in the configuration: a plain refresh goes on as the recorded user (the up's);
      // one that runs the program meets the revoked key. The plugin's check refuses it before the
      // engine records the provider's settings, so the plain refresh after it still acts as the
      // up's user; the dynamic resources' settings are recorded as they fail, so it fails too.
      await setKey("engine-facts-revoked-key");
      if (surface !== "plugin") expect(await usersOf(() => test.stack.refresh())).toEqual([OTHER_USER.id]);
      expect(await failureOf(test.stack.refresh({ runProgram: true }))).toContain("the service refused the API key");
      if (surface === "plugin") expect(await usersOf(() => test.stack.refresh())).toEqual([OTHER_USER.id]);
      else expect(await failureOf(test.stack.refresh())).toContain("the service refused the API key");

      // A refresh that runs the program acts with the configuration as it is, and records it: the
      // destroy after it, with yet another key configured, acts as this refresh's user. Destroy,
      // too, acts as the recorded user, whatever the configuration says.
      await setKey(service.apiKey);
      expect(await usersOf(() => test.stack.refresh({ runProgram: true }))).toEqual([TEST_USER_ID]);
      await setKey(OTHER_USER.apiKey);
      expect(await usersOf(() => test.stack.destroy())).toEqual([TEST_USER_ID]);
      expect(await ours()).toEqual([]);
    });
  }
});
