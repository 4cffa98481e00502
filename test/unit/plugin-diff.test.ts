/** The plugin's detailed diff: each changed input with what it does, a replacement a resource adds winning. */
import { describe, expect, it } from "vitest";
import { propertyChanges } from "../../provider/plugin/resources";

describe("propertyChanges", () => {
  it("takes each field's change from the table's diff", () => {
    expect(propertyChanges({ changes: true, replaces: [], detailed: { name: "update", description: "update" } })).toEqual({
      name: "update",
      description: "update",
    });
  });

  it("makes a replacement the resource adds beyond its table win, and lists it", () => {
    // A schedule that has run replaces for a new start; a failed job run replaces on its status.
    expect(propertyChanges({ changes: true, replaces: ["startAt"], detailed: { startAt: "update", name: "update" } })).toEqual({
      startAt: "replace",
      name: "update",
    });
    expect(propertyChanges({ changes: true, replaces: ["status"] })).toEqual({ status: "replace" });
  });

  it("lists nothing when nothing changes", () => {
    expect(propertyChanges({ changes: false, replaces: [], detailed: {} })).toEqual({});
  });
});
