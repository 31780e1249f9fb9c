// Edit sequences over a list of inputs, for the snapshot property tests (snapshotCache.property.test.ts,
// snapshotIncremental.property.test.ts): each test has its own object generator (`input(slot, variant)`, one file
// per slot); the edits, how they apply and how two snapshots are compared are the same.
import { expect } from 'vitest';
import type { RawInput } from './inputs';
import type { MeshSnapshot } from './mesh';

export type SnapshotEdit = { op: 'put'; slot: number; variant: number } | { op: 'delete' | 'move' | 'touch'; at: number };

/**
 * The list after one edit: `put` replaces the slot's file in place (or appends it), `delete` removes an input,
 * `move` sends one to the end (every later input's index moves), `touch` re-sends the same content as a new object
 * (a relist, a re-read file: no cache hit by identity).
 */
export function applyEdit(list: RawInput[], e: SnapshotEdit, input: (slot: number, variant: number) => RawInput): RawInput[] {
  const next = list.slice();
  if (e.op === 'put') {
    const at = next.findIndex((i) => i.origin.file === `f${e.slot}.yaml`);
    if (at >= 0) next[at] = input(e.slot, e.variant);
    else next.push(input(e.slot, e.variant));
    return next;
  }
  if (next.length === 0) return next;
  const at = e.at % next.length;
  if (e.op === 'delete') next.splice(at, 1);
  else if (e.op === 'move') next.push(...next.splice(at, 1));
  else next[at] = structuredClone(next[at]!);
  return next;
}

/** Map-order-preserving serialization (deep equality ignores Map order; iteration order is part of the snapshot). */
export const serSnapshot = (s: MeshSnapshot): string => JSON.stringify(s, (_k, v) => (v instanceof Map ? { map: [...v.entries()] } : v));

/** The cached build equals the build from scratch: deep equality and the same serialization (Map order included). */
export function expectSameSnapshot(incremental: MeshSnapshot, scratch: MeshSnapshot): void {
  expect(incremental).toStrictEqual(scratch);
  expect(serSnapshot(incremental)).toBe(serSnapshot(scratch));
  expect(unfrozen(incremental)).toEqual([]);
}

/** The paths of objects in `v` that are not frozen (a snapshot is immutable all the way down, as buildSnapshot freezes it). */
function unfrozen(v: unknown, path = '$', seen = new Set<object>(), out: string[] = []): string[] {
  if (!v || typeof v !== 'object' || seen.has(v) || out.length >= 5) return out;
  seen.add(v);
  if (!Object.isFrozen(v)) out.push(path);
  if (v instanceof Map) for (const [k, x] of v) unfrozen(x, `${path}.get(${String(k)})`, seen, out);
  else if (Array.isArray(v)) v.forEach((x, i) => unfrozen(x, `${path}[${i}]`, seen, out));
  else for (const [k, x] of Object.entries(v)) unfrozen(x, `${path}.${k}`, seen, out);
  return out;
}
