/** Diffs from declared rules: update versus replace, unknown values, and what counts as equal. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { changedFields, diffByRules, sameValue, type FieldRules } from "../../provider/resources/shared/diff";

interface Olds {
  name: string;
  region: string;
  tags?: Record<string, string>;
  nodes: number;
}

interface News {
  name: string;
  region?: string;
  tags?: Record<string, string>;
  nodes?: number;
}

const rules: FieldRules<Olds, News> = {
  name: { desired: (n) => n.name, current: (o) => o.name, onChange: "update" },
  // An omitted region means the service's default, so omitting it is no change.
  region: { desired: (n) => n.region ?? "us-east-1", current: (o) => o.region, onChange: "replace" },
  tags: { desired: (n) => n.tags ?? {}, current: (o) => o.tags ?? {}, onChange: "update" },
  nodes: { desired: (n) => n.nodes ?? 1, current: (o) => o.nodes, onChange: "update" },
};

const olds: Olds = { name: "etl", region: "us-east-1", tags: { team: "data", env: "prod" }, nodes: 1 };
const unknown = pulumi.runtime.unknownValue;

describe("diffByRules", () => {
  it("reports no change when every effective value matches, defaults included", () => {
    expect(diffByRules(rules, olds, { name: "etl", tags: { env: "prod", team: "data" } })).toMatchObject({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("updates in place when only update fields change", () => {
    expect(diffByRules(rules, olds, { name: "etl-2", tags: { team: "data", env: "prod" }, nodes: 3 })).toMatchObject({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(changedFields(rules, olds, { name: "etl-2", tags: { team: "data", env: "prod" }, nodes: 3 })).toEqual(["name", "nodes"]);
  });

  it("replaces when a replace field changes, listing only the replace fields", () => {
    const diff = diffByRules(rules, olds, { name: "etl-2", region: "eu-west-1", tags: olds.tags });
    expect(diff).toMatchObject({ changes: true, replaces: ["region"], deleteBeforeReplace: false });
    // What each changed field does, for the plugin's detailed diff.
    expect(diff.detailed).toEqual({ name: "update", region: "replace" });
  });

  it("deletes before replacing only when asked and only when replacing", () => {
    const news = { name: "etl", region: "eu-west-1", tags: olds.tags };
    expect(diffByRules(rules, olds, news, { deleteBeforeReplace: true }).deleteBeforeReplace).toBe(true);
    expect(diffByRules(rules, olds, { ...news, region: undefined, name: "x" }, { deleteBeforeReplace: true }).deleteBeforeReplace).toBe(false);
  });

  it("treats an unknown value as a change, with its field's kind", () => {
    expect(diffByRules(rules, olds, { name: unknown as string, tags: olds.tags })).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(diffByRules(rules, olds, { name: "etl", region: unknown as string, tags: olds.tags }).replaces).toEqual(["region"]);
  });

  it("finds unknown values nested in objects and arrays", () => {
    expect(changedFields(rules, olds, { name: "etl", tags: { team: unknown as string, env: "prod" } })).toEqual(["tags"]);
    const listRules: FieldRules<{ ids: number[] }, { ids: unknown[] }> = {
      ids: { desired: (n) => n.ids, current: (o) => o.ids, onChange: "update" },
    };
    expect(changedFields(listRules, { ids: [1, 2] }, { ids: [1, unknown] })).toEqual(["ids"]);
    expect(changedFields(listRules, { ids: [1, 2] }, { ids: [1, 2] })).toEqual([]);
  });
});

describe("sameValue", () => {
  it("ignores key order, at every depth", () => {
    expect(sameValue({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
    expect(sameValue([{ x: 1, y: 2 }], [{ y: 2, x: 1 }])).toBe(true);
  });

  it("counts an undefined property as a missing one", () => {
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ nested: { a: undefined } }, { nested: {} })).toBe(true);
    expect(sameValue(undefined, undefined)).toBe(true);
  });

  it("tells apart what differs: values, types, null and undefined, array order", () => {
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue({ a: 1 }, { a: "1" })).toBe(false);
    expect(sameValue(null, undefined)).toBe(false);
    expect(sameValue({ a: null }, {})).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue({}, [])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 0 })).toBe(false);
  });
});
