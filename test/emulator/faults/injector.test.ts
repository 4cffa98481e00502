/** The fault injector on its own: the rate it keeps, the kinds and latencies it draws, and the settings it refuses. */
import { describe, expect, it } from "vitest";
import { FaultInjector, MAX_LATENCY_MS, MIN_LATENCY_MS, parseFaultConfig } from "../../../emulator/faults";

describe("FaultInjector", () => {
  it("injects at about the configured rate, every kind, latencies within bounds", () => {
    const faults = new FaultInjector();
    faults.configure(parseFaultConfig({ rate: 0.3, seed: 2024 }));
    const delays: number[] = [];
    let injected = 0;
    for (let i = 0; i < 20_000; i++) {
      const decision = faults.decide("GET");
      if (decision === undefined) continue;
      injected++;
      if (decision.kind === "latency") delays.push(decision.delayMs);
    }
    expect(injected / 20_000).toBeGreaterThan(0.28);
    expect(injected / 20_000).toBeLessThan(0.32);
    expect(Object.values(faults.status().injected).every((count) => count > 800)).toBe(true);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(MIN_LATENCY_MS);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_LATENCY_MS);
  });

  it("decides nothing once disabled", () => {
    const faults = new FaultInjector();
    faults.configure({ rate: 1, kinds: ["500"], seed: 1, holdMs: 0 });
    faults.disable();
    expect(faults.decide("GET")).toBeUndefined();
  });

  it("considers only the methods it is given, and counts only those", () => {
    const faults = new FaultInjector();
    faults.configure(parseFaultConfig({ rate: 1, kinds: ["500"], methods: ["POST"] }));
    expect(faults.decide("GET")).toBeUndefined();
    expect(faults.decide("POST")).toEqual({ kind: "500", delayMs: 0 });
    expect(faults.status()).toMatchObject({ requests: 1, methods: ["POST"] });
  });

  it("refuses methods and holdMs it cannot use, naming the field", () => {
    expect(() => parseFaultConfig({ rate: 1, methods: ["PATCH"] })).toThrow(/methods must be a non-empty array of GET, POST, PUT, DELETE/);
    expect(() => parseFaultConfig({ rate: 1, methods: [] })).toThrow(/methods must be/);
    expect(() => parseFaultConfig({ rate: 1, holdMs: -1 })).toThrow(/holdMs must be an integer from 0 to 600000/);
  });
});
