// Weight sliders that keep the sum of a route's destinations at 100: Istio's validation of an HTTP route
// (pkg/config/validation validateHTTPRouteDestinations) wants the weights of several destinations to total
// 100, and a single destination without a weight takes all the traffic.

/** Splits `total` into integers proportional to `shares` (largest remainder); equal parts when all are 0. */
export function apportion(shares: readonly number[], total: number): number[] {
  if (shares.length === 0) return [];
  const clean = shares.map((s) => (Number.isFinite(s) && s > 0 ? s : 0));
  const sum = clean.reduce((a, b) => a + b, 0);
  const exact = sum > 0 ? clean.map((s) => (s / sum) * total) : clean.map(() => total / clean.length);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i] = (out[i] ?? 0) + 1;
    left--;
  }
  return out;
}

/**
 * Sets destination `index` to `value` (clamped to 0..100) and rescales the others so the sum stays 100,
 * keeping their proportions (equal parts when they were all 0). One destination always gets 100.
 */
export function setWeight(weights: readonly number[], index: number, value: number): number[] {
  if (weights.length <= 1) return weights.map(() => 100);
  const v = Math.round(Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0)));
  const others = weights.map((w, i) => (i === index ? 0 : w));
  const rest = apportion(
    others.filter((_, i) => i !== index),
    100 - v,
  );
  const out: number[] = [];
  let k = 0;
  for (let i = 0; i < weights.length; i++) out.push(i === index ? v : (rest[k++] ?? 0));
  return out;
}

/**
 * The weights as Istio reads them: an unset weight on a single destination means 100; with several,
 * unset means 0 (istio's translation uses the weight as given).
 */
export function effectiveWeights(weights: readonly (number | undefined)[]): number[] {
  if (weights.length === 1) return [weights[0] ?? 100];
  return weights.map((w) => w ?? 0);
}

export const weightSum = (weights: readonly number[]) => weights.reduce((a, b) => a + b, 0);
