import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The compile flags of every Go build of the project's set-up (scripts/go-build.sh), which warms
 * Go's build cache with the Pulumi Go SDK under them: the same flags and cgo off here, so the
 * tests' programs reuse those packages rather than compiling them again.
 */
const SHARED_COMPILE_FLAGS = readFileSync(path.resolve(import.meta.dirname, "../../scripts/engine/go-compile-flags"), "utf8").trim();

/**
 * The environment of the tests' Go programs, which the Go language host builds before every
 * operation (or `go build -o` once): the modules as go.sum pins them (or as `go mod tidy` resolves
 * them, with `mod`), no version-control stamp, the set-up's compile flags, and no DWARF debugging
 * information (`-ldflags=-w`), a third of each link's CPU (examples/quickstart-go: 3.3 s of CPU,
 * 2.2 s without it) that nothing here reads.
 */
export function goProgramEnv(modules: "readonly" | "mod" = "readonly"): Record<string, string> {
  return { GOFLAGS: `-mod=${modules} -buildvcs=false -ldflags=-w ${SHARED_COMPILE_FLAGS}`, CGO_ENABLED: "0", GOTOOLCHAIN: "local" };
}
