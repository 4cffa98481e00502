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
  it("sets aside a Go program's report that the engine cancelled its registrations", () => {
    const output = PROVIDER_ERROR + goStackReport("waiting for RPCs: rpc error: code = Canceled desc = context canceled");
    expectSettingsErrorOnce(output, /refused the API key/);
  });

  it("keeps a Go program's failure of any other cause", () => {
    const output = PROVIDER_ERROR + goStackReport("panic: runtime error: index out of range");
    expect(() => expectSettingsErrorOnce(output, /refused the API key/)).toThrow();
  });
});
