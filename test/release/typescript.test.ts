/**
 * A TypeScript user with only the release folder: the two npm tarballs installed with npm, the
 * plugin from its archive, in a folder outside the repository; the language lifecycle's program.
 */
import { describeLanguageLifecycle } from "../support/language-lifecycle";
import { createReleaseStack } from "../support/release-project";

describeLanguageLifecycle("typescript", { createStack: createReleaseStack, installed: "the npm tarballs and the plugin archive of the release" });
