/**
 * What the README and the operations page say of the engine itself, held by real runs of the
 * `pulumi` CLI on both surfaces: a plain `pulumi refresh --yes` reads every object twice (the
 * preview of the refresh, then the refresh) where `--skip-preview` and `--preview-only` read once;
 * `refresh` and `destroy` act with the API key recorded at the last `up` until an `up` or a
 * `refresh --run-program` records the new one (one that fails at a revoked key records it on the
 * dynamic resources only); and the engine's own `-v=9` trace keeps the key out (Pulumi v3.269.0
 * and later hide there the secrets it sends a provider, which older engines printed).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, pulumiCommand, type TestStack } from "../support/engine";
import { startLocalService, TEST_USER_ID, type LocalService } from "../support/service";
import { declare, SURFACES } from "../support/surfaces";

const OTHER_USER = { id: 71, name: "Other User", email: "other@example.com", apiKey: "engine-facts-other-key" };

interface Logged {
  method: string;
  path: string;
  userId: number | null;
}

describe("the engine's rules the docs state", { timeout: 300_000 }, () => {
  let service: LocalService;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    service = await startLocalService({ users: [OTHER_USER] });
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
    it(`on the ${surface} surface: refresh passes, the recorded API key, and the verbose trace`, async () => {
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

      const onePass = (await cli(test, ["refresh", "--yes", "--skip-preview"])).requests;
      expect(onePass.filter((request) => request.path.endsWith("/connection_groups")).length).toBeGreaterThan(0);
      expect((await cli(test, ["refresh", "--preview-only"])).requests).toEqual(onePass);
      expect((await cli(test, ["refresh", "--yes"])).requests).toEqual([...onePass, ...onePass]);

      const ours = async () => {
        const groups = (await service.state()).accounts[0].connectionGroups as Array<{ name: string }>;
        return groups.map((group) => group.name).filter((name) => name.startsWith(`engine-facts-${surface}-`));
      };
      const setKey = (apiKey: string) => test.stack.setConfig("etl:apiKey", { value: apiKey, secret: true });

      // A new key in the configuration: refresh and destroy act as the user recorded at the last up.
      await setKey(OTHER_USER.apiKey);
      expect(await usersOf(() => test.stack.refresh())).toEqual([TEST_USER_ID]);
      expect(await usersOf(() => test.stack.destroy())).toEqual([TEST_USER_ID]);
      expect(await ours()).toEqual([]);
      expect(await usersOf(() => test.stack.up())).toEqual([OTHER_USER.id]);

      // A refresh that runs the program acts with the configuration as it is, and records it.
      await setKey(service.apiKey);
      expect(await usersOf(() => test.stack.refresh())).toEqual([OTHER_USER.id]);
      expect(await usersOf(() => test.stack.refresh({ runProgram: true }))).toEqual([TEST_USER_ID]);
      expect(await usersOf(() => test.stack.refresh())).toEqual([TEST_USER_ID]);
      // So does an unchanged up, with one call: the settings' proof.
      await setKey(OTHER_USER.apiKey);
      await service.resetRequests();
      await test.stack.up();
      expect(await logged()).toEqual([{ method: "GET", path: `/accounts/${service.accountId}`, userId: OTHER_USER.id }]);
      expect(await usersOf(() => test.stack.refresh())).toEqual([OTHER_USER.id]);

      // Not even the engine's own trace of what it sends a provider shows the key, though it shows that trace.
      const traced = (await cli(test, ["refresh", "--yes", "--skip-preview", "-v=9", "--logtostderr"])).output;
      expect(traced).toMatch(/Configure\(\) executing/);
      expect(traced).not.toContain(OTHER_USER.apiKey);
      expect((await cli(test, ["refresh", "--yes", "--skip-preview"])).output).not.toContain(OTHER_USER.apiKey);

      // A revoked key in the configuration: a plain refresh goes on as the recorded user; one that
      // runs the program meets the revoked key. The plugin's check refuses it before the engine
      // records the provider's settings; the dynamic resources' settings are recorded as they fail.
      await setKey("engine-facts-revoked-key");
      expect(await usersOf(() => test.stack.refresh())).toEqual([OTHER_USER.id]);
      expect(await failureOf(test.stack.refresh({ runProgram: true }))).toContain("the service refused the API key");
      if (surface === "plugin") expect(await usersOf(() => test.stack.refresh())).toEqual([OTHER_USER.id]);
      else expect(await failureOf(test.stack.refresh())).toContain("the service refused the API key");

      await setKey(OTHER_USER.apiKey);
      await test.stack.up();
      await test.stack.destroy();
      expect(await ours()).toEqual([]);
    });
  }
});
