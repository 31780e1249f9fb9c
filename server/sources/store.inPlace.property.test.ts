// The store's in-place replace (issue 24: a file source re-reading one document of a big mesh hands over the
// same objects for every other one) is invisible: over random sequences of replace() — mostly the last list
// with objects replaced in place (a changed object, a deep-equal copy, the same object), plus whole new lists
// with adds, deletes, moves, duplicates and unkeyed objects — and upsert()/remove() between them, a store
// with it and a store that merges every list whole (`inPlaceReplace: false`) publish the same changes (keys,
// endpoints-only) and the same snapshots (inputs, errors, every derived field); the in-place store also builds
// each snapshot after in-place replaces by patching its last merged list (Store.patched), the other never does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Store, type StoreChange } from './store';
import type { RawInput, RawObject } from './types';

const origin = { source: 'file' as const, file: 'mesh.yaml', doc: 0 };
const vs = (name: string, w: number): RawObject => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace: 'default' },
  spec: {
    hosts: ['reviews'],
    http: [
      {
        route: [
          { destination: { host: 'reviews', subset: 'v1' }, weight: w },
          { destination: { host: 'reviews', subset: 'v2' }, weight: 100 - w },
        ],
      },
    ],
  },
});
const pod = (name: string, ip: string): RawObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels: { app: 'reviews' } },
  spec: { containers: [{ name: 'app' }] },
  status: { podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
});
const bad = (name: string): RawObject => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace: 'default' },
  spec: { hosts: 7 },
});

const object = fc.oneof(
  fc.record({ n: fc.constantFrom('a', 'b', 'c', 'd'), w: fc.constantFrom(0, 20, 80, 100) }).map(({ n, w }) => vs(n, w)),
  fc.record({ n: fc.constantFrom('p', 'q', 'r'), ip: fc.constantFrom('10.0.0.1', '10.0.0.2') }).map(({ n, ip }) => pod(n, ip)),
  fc.constantFrom('a', 'b').map(bad),
  fc.constant({ apiVersion: 'v1', kind: 'Service', metadata: {} } as RawObject), // no name: unkeyed
);
const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ t: fc.constant('inPlace' as const), edits: fc.array(fc.tuple(fc.nat(), fc.nat(3), object), { maxLength: 3 }) }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('whole' as const), list: fc.array(object, { maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('upsert' as const), o: object }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('remove' as const), at: fc.nat() }) },
);

const keyOf = (o: RawObject) => `${o.kind}/${String((o.metadata as { name?: string }).name)}`;

describe('in-place replace equals a whole merge', () => {
  it('over random sequences of replace, upsert and remove', () => {
    fc.assert(
      fc.property(fc.array(object, { maxLength: 6 }), fc.array(step, { maxLength: 12 }), (start, steps) => {
        const at = new Date('2026-11-28T00:00:00Z');
        const stores = [new Store({ now: () => at }), new Store({ now: () => at, inPlaceReplace: false })];
        const changes: StoreChange[][] = [[], []];
        stores.forEach((s, n) => s.onChange((_snap, c) => changes[n]!.push(c)));
        let list: RawInput[] = start.map((object) => ({ object, origin }));
        const apply = (f: (s: Store) => void) => {
          for (const s of stores) f(s);
          for (const s of stores) s.flush();
          const [a, b] = stores.map((s) => s.snapshot());
          expect(JSON.stringify(a)).toBe(JSON.stringify(b));
          expect(stores[0]!.inputs()).toEqual(stores[1]!.inputs());
          expect(changes[0]).toEqual(changes[1]);
        };
        apply((s) => s.replace('files', list));
        for (const st of steps) {
          if (st.t === 'inPlace') {
            list = list.slice();
            for (const [i, how, o] of st.edits) {
              if (list.length === 0) break;
              const k = i % list.length;
              const cur = list[k]!;
              // A changed object of the same key, a deep-equal copy, or a new RawInput around the same object.
              if (how === 0 && keyOf(o) === keyOf(cur.object)) list[k] = { object: o, origin };
              else if (how === 1) list[k] = { object: structuredClone(cur.object), origin };
              else if (how === 2) list[k] = { object: cur.object, origin: { ...cur.origin } };
              else list[k] = { object: o, origin }; // any object: may change the key (then merged whole)
            }
          } else if (st.t === 'whole') list = st.list.map((object) => ({ object, origin }));
          else if (st.t === 'upsert') {
            apply((s) => s.upsert('files', { object: st.o, origin }));
            continue;
          } else {
            const o = list[st.at % Math.max(1, list.length)]?.object;
            const md = o?.metadata as { name?: string } | undefined;
            if (o && md?.name)
              apply((s) =>
                s.remove('files', { apiVersion: String(o.apiVersion), kind: String(o.kind), namespace: 'default', name: md.name! }),
              );
            continue;
          }
          apply((s) => s.replace('files', list));
        }
        for (const s of stores) s.close();
      }),
      { numRuns: 300 },
    );
  });
});
