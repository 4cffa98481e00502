/**
 * A TypeScript user with only the release folder: the two npm tarballs installed with npm, the
 * plugin from its archive, in a folder outside the repository. In that one project: the pulumi-etl
 * tarball's commands and a JavaScript program on its dynamic resources, then the language
 * lifecycle's program on the SDK and the plugin.
 */
import { beforeAll } from "vitest";
import { describeLanguageLifecycle } from "../support/language-lifecycle";
import type { UserMachine } from "../support/release";
import { TIMEOUT_MS } from "../support/release-lifecycle";
import { describeNpmPackageInstalled } from "../support/release-npm-package";
import { newReleaseProject, releaseStackIn } from "../support/release-project";

let machine: UserMachine;

beforeAll(async () => {
  machine = await newReleaseProject("typescript");
}, TIMEOUT_MS);

describeNpmPackageInstalled(() => machine);

// Last: disposing of the lifecycle's stack removes the project.
describeLanguageLifecycle("typescript", {
  createStack: (language, service, config) => releaseStackIn(machine, language, service, config),
  installed: "the npm tarballs and the plugin archive of the release",
});
