// What changed between two renders of the same proxy: keys of rows that are new or different, so a
// live update can flash them. Signatures are the rows' JSON (cheap enough for 10k rows once per event).

export function signatures<R extends { key: string }>(rows: readonly R[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const r of rows) m.set(r.key, JSON.stringify(r));
  return m;
}

/** Keys in `after` that are absent from `before` or whose signature differs. */
export function changedKeys(before: ReadonlyMap<string, string> | undefined, after: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  if (!before) return out;
  for (const [k, sig] of after) if (before.get(k) !== sig) out.add(k);
  return out;
}

/** Number of rows that disappeared (shown in the change banner; they cannot be highlighted). */
export function removedCount(before: ReadonlyMap<string, string> | undefined, after: ReadonlyMap<string, string>): number {
  if (!before) return 0;
  let n = 0;
  for (const k of before.keys()) if (!after.has(k)) n++;
  return n;
}
