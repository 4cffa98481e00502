/**
 * A test stack's settings written into its `Pulumi.<stack>.yaml` as `pulumi config set` would
 * write them, rather than by starting the CLI (a fifth of a second of CPU each, about 190 a run):
 * each value a string, a secret sealed with the stack's data key as Pulumi's symmetric crypter
 * seals it (AES-256-GCM, `v1:<nonce>:<sealed>`), the key decrypted by the run's transit key's
 * server (stack-files.ts). The engine reads the file at each operation, as it reads the CLI's.
 *
 * The file must be the one `pulumi stack init` left or the one written here last: once anything
 * else wrote it (the CLI, through the workspace), and for a key without its namespace or a value
 * given by path, the CLI writes, as before. test/engine/stack-files.test.ts holds the CLI to read
 * back what was written here.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { type ConfigMap, type ConfigValue, type LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { TEST_SECRETS_PROVIDER } from "./secrets-transit";
import { type DataKeys, dataKeyOf, sealed } from "./stack-files";

/** The file `pulumi stack init` leaves for a stack of the transit key. */
const INITIAL = /^secretsprovider: (\S+)\nencryptedkey: (\S+)\n$/;

/** Makes `stack`'s config setters and removers write its file where they can (see above). */
export function writeConfigInFile(stack: Stack, keys: DataKeys): void {
  const file = path.join((stack.workspace as LocalWorkspace).workDir, `Pulumi.${stack.name}.yaml`);
  const values = new Map<string, ConfigValue>();
  let header: { provider: string; sealedKey: string } | undefined;
  let written: string | undefined;
  let cliOnly = false;

  /** Whether the file is still the one stack init left or the one written last; once not, never again. */
  const stillOurs = (): boolean => {
    if (cliOnly) return false;
    const text = readFileSync(file, "utf8");
    if (written === undefined) {
      const initial = INITIAL.exec(text);
      if (initial?.[1] === TEST_SECRETS_PROVIDER) header = { provider: initial[1], sealedKey: initial[2]! };
      cliOnly = header === undefined;
    } else {
      cliOnly = text !== written;
    }
    return !cliOnly;
  };

  const write = async (): Promise<void> => {
    const key = await dataKeyOf(header!.sealedKey, keys);
    const lines = [`secretsprovider: ${header!.provider}`, `encryptedkey: ${header!.sealedKey}`];
    if (values.size > 0) lines.push("config:");
    for (const [name, { value, secret }] of values) {
      lines.push(
        secret ? `  ${JSON.stringify(name)}:\n    secure: ${JSON.stringify(sealed(key, value))}` : `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`,
      );
    }
    written = `${lines.join("\n")}\n`;
    writeFileSync(file, written);
  };

  const namespaced = (names: string[]) => names.every((name) => /^[^:\s]+:[^:\s]+$/.test(name));
  const cli = Stack.prototype;
  /** `name` runs `write`'s way when it returns a promise, the CLI's when it returns nothing. */
  const override = <A extends unknown[]>(name: keyof Stack, run: (...args: A) => Promise<void> | undefined) =>
    Object.defineProperty(stack, name, {
      value: async (...args: A) => {
        const handled = run(...args);
        await (handled ?? (cli[name] as (...a: A) => Promise<void>).apply(stack, args));
      },
    });

  const setAll = (config: ConfigMap, byPath?: boolean) => {
    if (byPath || !namespaced(Object.keys(config)) || !stillOurs()) return undefined;
    for (const [name, value] of Object.entries(config)) values.set(name, { value: value.value, secret: value.secret === true });
    return write();
  };
  const removeAll = (names: string[], byPath?: boolean) => {
    if (byPath || !names.every((name) => values.has(name)) || !stillOurs()) return undefined;
    for (const name of names) values.delete(name);
    return write();
  };
  override("setAllConfig", setAll);
  override("setConfig", (name: string, value: ConfigValue, byPath?: boolean) => setAll({ [name]: value }, byPath));
  override("removeAllConfig", removeAll);
  override("removeConfig", (name: string, byPath?: boolean) => removeAll([name], byPath));
}
