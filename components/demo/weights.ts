// Weight sliders that keep the sum at 100 (pure, browser-safe): moving one slider takes the difference
// from (or gives it to) the others in proportion to their weights, integers only.

export type Weights = Record<string, number>;

const clamp = (x: number) => Math.max(0, Math.min(100, Math.round(x)));

/** `weights` with `key` set to `value` and the others scaled so the total is 100. */
export function rebalance(weights: Weights, key: string, value: number): Weights {
  const keys = Object.keys(weights);
  const v = clamp(value);
  const others = keys.filter((k) => k !== key);
  if (others.length === 0) return { [key]: 100 };
  const rest = 100 - v;
  const otherSum = others.reduce((a, k) => a + (weights[k] ?? 0), 0);
  const out: Weights = { [key]: v };
  // Largest-remainder rounding so the integers add up to exactly `rest`.
  const raw = others.map((k) => ({ k, x: otherSum > 0 ? (rest * (weights[k] ?? 0)) / otherSum : rest / others.length }));
  let given = 0;
  for (const r of raw) {
    out[r.k] = Math.floor(r.x);
    given += Math.floor(r.x);
  }
  raw.sort((a, b) => b.x - Math.floor(b.x) - (a.x - Math.floor(a.x)));
  for (let i = 0; given < rest; i = (i + 1) % raw.length) {
    out[raw[i]!.k]! += 1;
    given++;
  }
  return Object.fromEntries(keys.map((k) => [k, out[k] ?? 0]));
}

/** A canary step over the first two subsets (`[first, second]` percent), the rest at 0. */
export function canaryStep(subsets: readonly string[], first: number): Weights {
  const out: Weights = Object.fromEntries(subsets.map((s) => [s, 0]));
  if (subsets[0] !== undefined) out[subsets[0]] = subsets.length > 1 ? first : 100;
  if (subsets[1] !== undefined) out[subsets[1]] = 100 - first;
  return out;
}

export const CANARY_STEPS = [100, 90, 50, 0] as const;
