// A draft's edits over the base (live) raw inputs → the overlay's inputs, the store keys that changed and
// what each edit did. Pure: the base list is never mutated; later edits of the same object win, like a
// second `kubectl apply`.
import { isDeepStrictEqual } from 'node:util';
import { objectKey } from '../model/schema/kinds';
import { parseStoreKey } from '../impact/affected';
import { rawKey } from '../sources/storeKeys';
import type { RawInput } from '../sources/types';
import type { DraftEdit, EvaluateResult, ObjectRefKey, SandboxProblem } from './types';

export interface Overlay {
  inputs: RawInput[];
  /** Store keys whose object differs from the base (added, replaced with a different object, deleted). Sorted. */
  changed: string[];
  applied: EvaluateResult['edits'];
  /** Edits that could not apply (deleting an object the base does not have). */
  errors: SandboxProblem[];
  /** Store key → the draft document that last wrote or deleted it. */
  docOf: Map<string, number>;
}

const describeRef = (r: ObjectRefKey) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** The store keys of `keys` an object reference names (any group when the reference has no apiVersion). */
function keysOfRef(keys: Iterable<string>, ref: ObjectRefKey): string[] {
  if (ref.apiVersion) {
    const k = objectKey(ref.apiVersion, ref.kind, ref.namespace, ref.name);
    return [...keys].filter((x) => x === k);
  }
  const out: string[] = [];
  for (const k of keys) {
    const p = parseStoreKey(k);
    if (p && p.kind === ref.kind && p.namespace === ref.namespace && p.name === ref.name) out.push(k);
  }
  return out;
}

export function applyEdits(base: readonly RawInput[], edits: readonly DraftEdit[]): Overlay {
  const byKey = new Map<string, RawInput>();
  const unkeyed: RawInput[] = [];
  for (const input of base) {
    const k = rawKey(input.object);
    if (k === undefined) unkeyed.push(input);
    else byKey.set(k, input);
  }
  const baseByKey = new Map(byKey);
  const applied: EvaluateResult['edits'] = [];
  const errors: SandboxProblem[] = [];
  const docOf = new Map<string, number>();
  edits.forEach((edit, i) => {
    const doc = edit.origin?.doc ?? i;
    const line = edit.origin?.line;
    if (edit.op === 'put') {
      const key = rawKey(edit.object);
      if (key === undefined) return;
      const object = describeRef(refOf(edit.object));
      applied.push({ op: baseByKey.has(key) ? 'replace' : 'add', object, ...(line !== undefined ? { line } : {}) });
      // A replacement is an update: it keeps the live object's place and creation time (Istio orders
      // VirtualServices by creationTimestamp — the first one imported owns a host), unless the draft sets one.
      // A new object comes last, as the newest input.
      byKey.set(key, { object: keepCreation(edit.object, byKey.get(key)), origin: { source: 'sandbox', file: 'draft', doc } });
      docOf.set(key, doc);
      return;
    }
    const keys = keysOfRef(byKey.keys(), edit.ref);
    if (keys.length === 0) {
      errors.push({
        level: 'error',
        message: `cannot delete ${describeRef(edit.ref)}: no such object in the live config`,
        object: describeRef(edit.ref),
        doc,
        ...(line !== undefined ? { line } : {}),
        ...(edit.origin?.column !== undefined ? { column: edit.origin.column } : {}),
      });
      return;
    }
    for (const k of keys) {
      byKey.delete(k);
      docOf.set(k, doc);
    }
    applied.push({ op: 'delete', object: describeRef(edit.ref), ...(line !== undefined ? { line } : {}) });
  });
  const changed = new Set<string>();
  for (const [k, v] of byKey) {
    const before = baseByKey.get(k);
    if (!before || !isDeepStrictEqual(before.object, v.object)) changed.add(k);
  }
  for (const k of baseByKey.keys()) if (!byKey.has(k)) changed.add(k);
  return { inputs: [...byKey.values(), ...unkeyed], changed: [...changed].sort(), applied, errors, docOf };
}

export function refOf(o: Record<string, unknown>): ObjectRefKey {
  const md = (o.metadata ?? {}) as { name?: string; namespace?: string };
  return { apiVersion: String(o.apiVersion), kind: String(o.kind), namespace: md.namespace ?? '', name: md.name ?? '' };
}

function keepCreation(object: Record<string, unknown>, prev: RawInput | undefined): Record<string, unknown> {
  const md = (object.metadata ?? {}) as Record<string, unknown>;
  const ts = (prev?.object.metadata as Record<string, unknown> | undefined)?.creationTimestamp;
  if (md.creationTimestamp !== undefined || typeof ts !== 'string') return object;
  return { ...object, metadata: { ...md, creationTimestamp: ts } };
}
