/**
 * What holds a kind declared singleton under one provider: the first resource seen; the same one
 * seen again (a preview then an update in one process, a replacement) is no second. The engine
 * tests of UserSettings refuse a second one on both surfaces.
 */
import { describe, expect, it } from "vitest";
import { SingletonHolders } from "../../provider/resources/shared/singleton";

describe("SingletonHolders", () => {
  it("the first resource holds the kind; the same one again passes, another is told the holder", () => {
    const holders = new SingletonHolders();
    expect(holders.claim("UserSettings", "urn:a")).toBeUndefined();
    expect(holders.claim("UserSettings", "urn:a")).toBeUndefined();
    expect(holders.claim("UserSettings", "urn:b")).toBe("urn:a");
    expect(holders.claim("UserSettings", "urn:a")).toBeUndefined();
    expect(holders.claim("Other", "urn:b")).toBeUndefined();
  });
});
