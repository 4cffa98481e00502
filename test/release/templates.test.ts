/**
 * The release's `pulumi new` templates: each made by `pulumi new` from the templates' tarball, its
 * packages installed from the release's files, then up, an unchanged preview and destroy against
 * the emulator (test/support/release-templates.ts). Python, Go and YAML with no Node.js on
 * PATH; the plugin installed once from its archive into the Pulumi home the projects on it share,
 * as one user's projects do (the dynamic resources' template runs with no plugin).
 */
import { afterAll, beforeAll } from "vitest";
import type { UserMachine } from "../support/release";
import { TIMEOUT_MS } from "../support/release-lifecycle";
import { describeReleaseTemplate, pluginInstalledHome, serveReleaseNpmPackages, type Template, type TemplatesContext } from "../support/release-templates";

const context: TemplatesContext = {};
let pluginHome: UserMachine | undefined;

beforeAll(async () => {
  context.registry = await serveReleaseNpmPackages();
  pluginHome = await pluginInstalledHome();
  context.pluginHome = pluginHome.home;
}, TIMEOUT_MS);

afterAll(async () => {
  pluginHome?.dispose();
  await context.registry?.close();
});

for (const template of ["etl-typescript", "etl-typescript-dynamic", "etl-python", "etl-go", "etl-yaml"] satisfies Template[])
  describeReleaseTemplate(template, context);
