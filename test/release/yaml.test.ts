/**
 * A YAML user with only the plugin's archive: the program is its Pulumi.yaml, the YAML language
 * host reads the plugin's schema from the installed plugin; no SDK, no Node.js on PATH.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { describeReleaseLifecycle } from "../support/release-lifecycle";

describeReleaseLifecycle("yaml", {
  runtime: "  name: yaml\n",
  install: () => undefined,
  installedChecks: {
    "the project names no plugin path and installs no package: the plugin comes from the archive alone": (machine) => {
      const project = readFileSync(path.join(machine.dir, "Pulumi.yaml"), "utf8");
      expect(project).toMatch(/^runtime: yaml$/m);
      expect(project).not.toMatch(/^plugins:/m);
    },
  },
});
