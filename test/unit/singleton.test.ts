/**
 * What holds a kind declared singleton, or an object a `oncePer` input names, under one provider:
 * the first resource seen; the same one seen again (a preview then an update in one process, a
 * replacement) is no second. The engine tests of UserSettings and ClusterWatcher refuse a second
 * one on both surfaces.
 */
import { describe, expect, it } from "vitest";
import { HeldObjects } from "../../provider/resources/shared/held";
import { secondHolder, SingletonHolders } from "../../provider/resources/shared/singleton";

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

describe("SingletonHolders of an input's value", () => {
  const watch = (value: string) => ({ kind: "ClusterWatcher", input: "clusterId", value });

  it("holds each value once, and lets a resource's old value go when it is checked with another", () => {
    const holders = new SingletonHolders();
    expect(holders.claim(watch("201"), "urn:a")).toBeUndefined();
    expect(holders.claim(watch("202"), "urn:b")).toBeUndefined();
    expect(holders.claim(watch("201"), "urn:b")).toBe("urn:a");
    expect(holders.claim(watch("203"), "urn:a")).toBeUndefined();
    expect(holders.claim(watch("201"), "urn:c")).toBeUndefined();
    expect(holders.claim(watch("203"), "urn:c")).toBe("urn:a");
  });

  it("names both resources and the input's value", () => {
    expect(secondHolder(watch("201"), '"a"', '"b"', "provider")).toBe(
      'ClusterWatcher "b" and ClusterWatcher "a" both have clusterId 201, which is one object of the service for an API key: ' +
        "removing either would end what the other records; declare one ClusterWatcher per clusterId under a provider",
    );
  });
});

describe("HeldObjects", () => {
  it("a delete of an object a create made or took over is left alone once, and only for that kind and id", () => {
    const held = new HeldObjects();
    held.note("cluster watcher", "201");
    expect(held.release("cluster watcher", "202")).toBe(false);
    expect(held.release("member", "201")).toBe(false);
    expect(held.release("cluster watcher", "201")).toBe(true);
    expect(held.release("cluster watcher", "201")).toBe(false);
  });
});
