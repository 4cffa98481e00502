/** How `etl-export --only` names each kind: the kind's words, lower case and plural. */
import { describe, expect, it } from "vitest";
import { kindOptionName } from "../../provider/export/names";
import { RESOURCE_KINDS } from "../../provider/resources/registry";

describe("the kind names etl-export's --only takes", () => {
  it("spells each kind's plural in English, with words joined by hyphens", () => {
    expect(kindOptionName("Delivery")).toBe("deliveries");
    expect(kindOptionName("ConnectionGroup")).toBe("connection-groups");
    expect(kindOptionName("PublicKey")).toBe("public-keys");
    expect(kindOptionName("JobRun")).toBe("job-runs");
  });

  it.each(RESOURCE_KINDS)("%s: a lower-case plural with no consonant-y-s ending", (kind) => {
    const name = kindOptionName(kind);
    expect(name).toMatch(/^[a-z]+(-[a-z]+)*s$/);
    expect(name).not.toMatch(/[^aeiou]ys$/);
    expect(name.replace(/-/g, "")).toMatch(new RegExp(`^${kind.toLowerCase().replace(/y$/, "")}`));
  });
});
