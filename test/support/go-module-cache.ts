/**
 * The release's Go SDK module leaves the machine's module cache as the run starts (vitest's
 * globalSetup), so that the run's first `go get` fetches the one `npm run dist` made
 * (forgetCachedReleaseModule says why once per run). A machine without Go has nothing to forget.
 */
import { forgetCachedReleaseModule } from "./release";

export function setup(): void {
  try {
    forgetCachedReleaseModule();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
