// The incremental snapshot build (./snapshotIncremental) is invisible: over random edit sequences on a generated
// ambient mesh whose edits mostly replace one object in place (a pod's IP, labels, readiness, ambient annotation;
// one VirtualService, DestinationRule, Sidecar, AuthorizationPolicy, Istio Gateway) — the changes it narrows —
// mixed with edits it must not narrow (namespace labels, Services, EndpointSlices, ServiceEntries, WorkloadEntries,
// Gateway API objects incl. waypoint Gateways, adds, deletes, moves), a build through the store's SnapshotCache
// equals a build from scratch of the same inputs: deep equality and the same Map order. Issue 24: "an incremental
// build from any sequence of document-level edits equals a build from scratch".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawInput, RawObject } from './inputs';
import { edit, input, SLOTS } from './incrementalMesh.testing';
import { buildSnapshot } from './snapshot';
import { SnapshotCache } from './snapshotCache';
import { applyEdit, expectSameSnapshot, type SnapshotEdit } from './snapshotEdits.testing';

type Edit = SnapshotEdit;

const apply = (list: RawInput[], e: Edit): RawInput[] => applyEdit(list, e, input);

describe('incremental snapshot build: equal to a build from scratch', () => {
  const totals = { full: 0, incremental: 0 };
  it.each([true, false])('after every step of random in-place edits on a generated mesh (ambient %s)', (ambient) => {
    fc.assert(
      fc.property(
        // Every slot filled (an in-place edit then keeps the key and position); deletes make room for adds.
        fc.array(fc.nat(59), { minLength: SLOTS, maxLength: SLOTS }),
        fc.array(edit, { minLength: 1, maxLength: 30 }),
        (initial, edits) => {
          const cache = new SnapshotCache();
          let inputs = initial.map((variant, slot) => input(slot, variant));
          let version = 1;
          const check = () => {
            const opts = { version, ambient, extraErrors: [{ severity: 'warning' as const, message: `v${version}` }] };
            const incremental = buildSnapshot(inputs, { ...opts, cache });
            const scratch = buildSnapshot(inputs, opts);
            expectSameSnapshot(incremental, scratch);
          };
          check();
          for (const e of edits) {
            inputs = apply(inputs, e);
            version++;
            check();
          }
          totals.full += cache.stats.full;
          totals.incremental += cache.stats.incremental;
        },
      ),
      { numRuns: 50 },
    );
  });

  it('the property above exercised the incremental path and the fallback', () => {
    // Guards the generator: most steps must take the incremental path, and some must fall back.
    expect(totals.incremental).toBeGreaterThan(totals.full);
    expect(totals.full).toBeGreaterThan(0);
  });

  it('unchanged parts keep their identity: a pod IP change reuses every other pod, service and list', () => {
    const cache = new SnapshotCache();
    const base = Array.from({ length: SLOTS }, (_, slot) => input(slot, 1));
    const before = buildSnapshot(base, { version: 1, ambient: true, cache });
    const next = base.slice();
    next[2] = input(2, 2); // s0-a: another IP, the same labels
    const after = buildSnapshot(next, { version: 2, ambient: true, cache });
    expect(cache.stats).toEqual({ full: 1, incremental: 1 });
    const changed = after.pods.findIndex((p) => p.name === 's0-a');
    expect(after.pods[changed]!.ip).not.toBe(before.pods[changed]!.ip);
    after.pods.forEach((p, i) => i !== changed && expect(p).toBe(before.pods[i]));
    expect(after.services).toBe(before.services);
    expect(after.destinationRules).toBe(before.destinationRules);
    expect(after.virtualServices).toBe(before.virtualServices); // the Gateway API conversion gave the same again
    expect(after.ambient!.services).toBe(before.ambient!.services);
    // ns-0's Service s0 and its ServiceEntry (workloadSelector) may change; nothing of ns-1 does.
    for (const [k, v] of after.endpoints) if (k.startsWith('ns-1/')) expect(v).toBe(before.endpoints.get(k));
  });

  it('a pod relabelled from one selecting Service to another: both lists rebuilt from the pods each selects', () => {
    // Kubernetes' endpoints controller (and istiod's kube registry) give a Service the ready pods its selector
    // matches: the relabelled pod leaves `a`'s list and joins `b`'s, whose other pods stay. Only selecting
    // Services here (no EndpointSlice, no ServiceEntry): the narrowed rebuild reads the pods those two select.
    const obj = (kind: string, name: string, rest: { labels?: Record<string, string>; body?: Record<string, unknown> }): RawInput => ({
      object: {
        apiVersion: 'v1',
        kind,
        metadata: { name, namespace: 'ns', ...(rest.labels ? { labels: rest.labels } : {}) },
        ...rest.body,
      } as RawObject,
      origin: { source: 'file', file: 'm.yaml', doc: 0 },
    });
    const svc = (name: string) =>
      obj('Service', name, { body: { spec: { selector: { app: name }, ports: [{ name: 'http', port: 80 }] } } });
    const pod = (name: string, app: string, ip: string) =>
      obj('Pod', name, {
        labels: { app },
        body: {
          spec: { containers: [{ name: 'app', image: 'a:1' }] },
          status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
        },
      });
    const base: RawInput[] = [
      { object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } }, origin: { source: 'file', file: 'm.yaml', doc: 0 } },
      svc('a'),
      svc('b'),
      svc('c'),
      pod('a-1', 'a', '10.0.0.1'),
      pod('a-2', 'a', '10.0.0.2'),
      pod('b-1', 'b', '10.0.0.3'),
      pod('b-2', 'b', '10.0.0.4'),
      pod('c-1', 'c', '10.0.0.5'),
    ];
    const cache = new SnapshotCache();
    buildSnapshot(base, { version: 1, cache });
    const next = base.slice();
    next[4] = pod('a-1', 'b', '10.0.0.1');
    const incremental = buildSnapshot(next, { version: 2, cache });
    expect(cache.stats).toEqual({ full: 1, incremental: 1 });
    expectSameSnapshot(incremental, buildSnapshot(next, { version: 2 }));
    const addresses = (k: string) => [...(incremental.endpoints.get(k)?.values() ?? [])].flat().map((e) => e.address);
    expect(addresses('ns/a.ns.svc.cluster.local')).toEqual(['10.0.0.2']);
    expect(addresses('ns/b.ns.svc.cluster.local')).toEqual(['10.0.0.1', '10.0.0.3', '10.0.0.4']);
  });
});
