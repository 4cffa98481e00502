/**
 * The engine's check of an import's inputs: the inputs the service never returns, which the
 * import marks, are not missing there; anything else still fails, and a program's inputs (which
 * carry no mark) are checked as ever.
 */
import { describe, expect, it } from "vitest";
import { connectionImplementation } from "../../provider/resources/connection/implementation";
import { publicKeyImplementation } from "../../provider/resources/public-key/implementation";
import { UNREAD_INPUTS, type CheckResult } from "../../provider/resources/shared/check";

const IMPORTED_CONNECTION = { type: "postgres", name: "warehouse", host: "db.example.com", username: "etl", database: "analytics" };

const reasons = (result: CheckResult<unknown>) => (result.ok ? [] : result.failures.map((failure) => failure.reason));

describe("the check of an import's inputs", () => {
  it("passes a connection whose password the service never returned", async () => {
    const imported = { ...IMPORTED_CONNECTION, [UNREAD_INPUTS]: ["password"] };
    const result = await connectionImplementation.check(imported, imported);
    expect(reasons(result)).toEqual([]);
    expect(result.inputs).toEqual(IMPORTED_CONNECTION);
  });

  it("passes a key whose line the service never returned", async () => {
    const imported = { name: "deploy", [UNREAD_INPUTS]: ["publicKey"] };
    expect(reasons(await publicKeyImplementation.check(imported, imported))).toEqual([]);
  });

  it("still fails a marked input given with a bad value, and a required input the mark does not name", async () => {
    const imported = { ...IMPORTED_CONNECTION, password: 42, name: undefined, [UNREAD_INPUTS]: ["password"] };
    expect(reasons(await connectionImplementation.check(imported, imported))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^password must be a string/), "name is required"]),
    );
  });

  it("fails a program's inputs that leave the password out", async () => {
    expect(reasons(await connectionImplementation.check({}, IMPORTED_CONNECTION))).toEqual([expect.stringMatching(/^password is required/)]);
  });
});
