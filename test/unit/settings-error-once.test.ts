/** What the settings' proof tests count as one error: the engine's stop of a Go program is set aside, nothing else. */
import { describe, expect, it } from "vitest";
import { expectSettingsErrorOnce } from "../support/settings-proof";

const PROVIDER_ERROR = `Diagnostics:
  pulumi:providers:etl (default):
    error: the service refused the API key
`;
const goStackReport = (second: string) => `  pulumi:pulumi:Stack (etl-go-release-test):
    error: an unhandled error occurred: program failed:
    ${second}
`;

describe("a settings' proof failure told once", () => {
  it.each([
    ["cancelled its registrations", "waiting for RPCs: rpc error: code = Canceled desc = context canceled"],
    [
      "shut its resource monitor down",
      "waiting for RPCs: rpc error: code = Unavailable desc = resource monitor shut down while waiting on step's done channel",
    ],
    [
      "had already closed its monitor's port",
      'waiting for RPCs: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:45973: connect: connection refused"',
    ],
  ])("sets aside a Go program's report that the engine %s", (_, report) => {
    expectSettingsErrorOnce(PROVIDER_ERROR + goStackReport(report), /refused the API key/);
  });

  it("keeps a Go program's report of another unavailable service or another refused address", () => {
    for (const report of [
      "waiting for RPCs: rpc error: code = Unavailable desc = the service is down",
      'waiting for RPCs: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.0.0.5:443: connect: connection refused"',
    ]) {
      expect(() => expectSettingsErrorOnce(PROVIDER_ERROR + goStackReport(report), /refused the API key/)).toThrow();
    }
  });

  it("keeps a Go program's failure of any other cause", () => {
    const output = PROVIDER_ERROR + goStackReport("panic: runtime error: index out of range");
    expect(() => expectSettingsErrorOnce(output, /refused the API key/)).toThrow();
  });
});
