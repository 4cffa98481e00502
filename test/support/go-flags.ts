/**
 * GOFLAGS of the tests' Go programs, which the Go language host builds before every operation (or
 * `go build -o` once): the modules as go.sum pins them, no version-control stamp, and no DWARF
 * debugging information (`-ldflags=-w`), a third of each link's CPU (examples/quickstart-go: 3.3 s
 * of CPU, 2.2 s without it) that nothing here reads. The compile flags are those Go's build cache
 * was warmed with (scripts/languages.sh), so the Pulumi Go SDK is not compiled again.
 */
export const GO_PROGRAM_FLAGS = "-mod=readonly -buildvcs=false -ldflags=-w";
