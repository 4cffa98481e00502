/** Names are measured the same way on both sides: in characters (code points), not UTF-16 units. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { characterCount, MAX_NAME_LENGTH } from "../../contract/text";

describe("characterCount", () => {
  it("counts an emoji (two UTF-16 units) as one character", () => {
    expect(characterCount("😀".repeat(200))).toBe(200);
    expect("😀".repeat(200).length).toBe(400);
    expect(characterCount("naïve")).toBe(5);
  });

  it("agrees with the provider's input schemas, which measure with zod's max", () => {
    const schema = z.string().max(MAX_NAME_LENGTH);
    for (const name of ["😀".repeat(255), "😀".repeat(256), "x".repeat(255), "x".repeat(256), `${"é".repeat(255)}😀`]) {
      expect(schema.safeParse(name).success, name).toBe(characterCount(name) <= MAX_NAME_LENGTH);
    }
  });
});
