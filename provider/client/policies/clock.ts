/** Time as the policies see it, replaceable so tests run without real waiting. */
export type Sleep = (ms: number) => Promise<void>;

export interface Clock {
  sleep: Sleep;
  now: () => number;
}

export const realClock: Clock = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
};
