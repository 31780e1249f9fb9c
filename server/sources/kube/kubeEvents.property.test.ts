// Issue 24, "correctness stays proved": an incremental build from any sequence of kube watch events equals a
// build from scratch. Over random create/update/delete sequences (fast-check) applied to the in-repo fake API
// server, a KubeSource that follows them as per-object watch events into a Store (incremental: the store's
// per-object memo and whatever narrowing its build does) converges to exactly the snapshot that a second
// KubeSource + Store listing the final state from scratch builds — Map order, errors, the ambient index and all.
// The oracle is the product's own from-scratch path on the same objects, never a copy of its output.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeshSnapshot } from '../../model/mesh';
import { Store } from '../store';
import { KubeSource } from './kubeSource';
import type { FakeApiServer } from './testing/fakeApiServer';
import { kubeConfigFor } from './testing/fixtures';
import { startFake, TEST_BACKOFF } from './testing/harness';

const SLOTS = 20; // 2 groups (one namespace each) of 10 kinds

/** One object by slot, in one of a few variants (labels, IPs, weights, ports, binding to the waypoint). */
function objectFor(slot: number, variant: number): Record<string, unknown> {
  const group = Math.floor(slot / 10);
  const ns = `ns-${group}`;
  const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: ns, ...extra });
  switch (slot % 10) {
    case 0: // the namespace: sidecar injection, ambient enrolment, or bound to the waypoint
      return {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: ns,
          labels: [{ 'istio-injection': 'enabled' }, { 'istio.io/dataplane-mode': 'ambient' }, { 'istio.io/use-waypoint': 'waypoint' }][
            variant % 3
          ],
        },
      };
    case 1:
      return {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta('web', variant % 2 ? { labels: { 'istio.io/use-waypoint': 'waypoint' } } : {}),
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80 + (variant % 2), targetPort: 8080 }] },
      };
    case 2:
    case 3: {
      const v = slot % 10 === 2 ? 'v1' : 'v2';
      const ambient = variant % 3 === 0;
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: meta(`web-${v}`, {
          labels: { app: 'web', version: v },
          annotations: ambient ? { 'ambient.istio.io/redirection': 'enabled' } : { 'sidecar.istio.io/status': '{}' },
        }),
        spec: {
          containers: [
            { name: 'web', image: 'web:1', ports: [{ containerPort: 8080 }] },
            ...(ambient ? [] : [{ name: 'istio-proxy', image: 'proxyv2' }]),
          ],
        },
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          podIP: `10.${group}.${slot % 10}.${1 + (variant % 5)}`,
        },
      };
    }
    case 4:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: meta('web'),
        spec: {
          hosts: ['web'],
          http: [
            {
              route: [
                { destination: { host: 'web', subset: 'v1' }, weight: 100 - 10 * (variant % 5) },
                { destination: { host: 'web', subset: 'v2' }, weight: 10 * (variant % 5) },
              ],
            },
          ],
        },
      };
    case 5:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'DestinationRule',
        metadata: meta('web'),
        spec: {
          host: 'web',
          subsets: [
            { name: 'v1', labels: { version: 'v1' } },
            { name: 'v2', labels: { version: variant % 2 ? 'v2' : 'v3' } },
          ],
        },
      };
    case 6:
      return {
        apiVersion: 'networking.istio.io/v1',
        kind: 'Sidecar',
        metadata: meta('default'),
        spec: { egress: [{ hosts: variant % 2 ? ['./*', 'istio-system/*'] : ['*/*'] }] },
      };
    case 7: // the namespace's waypoint (istio-waypoint class; it counts once its status has an address)
      return {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: meta('waypoint', variant % 2 ? { labels: { 'istio.io/waypoint-for': 'all' } } : {}),
        spec: { gatewayClassName: 'istio-waypoint', listeners: [{ name: 'mesh', port: 15008, protocol: 'HBONE' }] },
        status: { addresses: [{ type: 'IPAddress', value: `10.96.${group}.${10 + (variant % 3)}` }] },
      };
    case 8:
      return {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: meta('web'),
        spec: {
          parentRefs: [{ group: '', kind: 'Service', name: 'web', port: 80 }],
          rules: [{ backendRefs: [{ name: 'web', port: 80, weight: 1 + (variant % 4) }] }],
        },
      };
    default:
      return {
        apiVersion: 'security.istio.io/v1',
        kind: 'AuthorizationPolicy',
        metadata: meta('allow-web'),
        spec: {
          selector: { matchLabels: { app: 'web' } },
          action: variant % 2 ? 'ALLOW' : 'DENY',
          rules: [{ from: [{ source: { namespaces: [variant % 3 ? 'ns-0' : 'ns-1'] } }] }],
        },
      };
  }
}

type Edit = { op: 'put'; slot: number; variant: number } | { op: 'del'; slot: number };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('put' as const), slot: fc.nat(SLOTS - 1), variant: fc.nat(11) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('del' as const), slot: fc.nat(SLOTS - 1) }) },
);

function applyEdit(fake: FakeApiServer, present: Set<number>, e: Edit): void {
  const variant = e.op === 'put' ? e.variant : 0;
  const o = objectFor(e.slot, variant);
  if (e.op === 'put') {
    fake.apply(o);
    present.add(e.slot);
  } else if (present.has(e.slot)) {
    const md = o.metadata as { name: string; namespace?: string };
    fake.delete({
      apiVersion: String(o.apiVersion),
      kind: String(o.kind),
      name: md.name,
      ...(o.kind === 'Namespace' ? {} : { namespace: md.namespace }),
    });
    present.delete(e.slot);
  }
}

/** The snapshot as data, Map order included; `version` counts builds and differs between the two stores by design. */
const ser = (s: MeshSnapshot): string =>
  JSON.stringify({ ...s, version: 0 }, (_k, v) => (v instanceof Map ? { map: [...v.entries()] } : v));

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function follow(fake: FakeApiServer): Promise<Store> {
  const store = new Store({ debounceMs: 1 });
  store.setAmbient(true);
  const source = new KubeSource('kube', { kubeConfig: kubeConfigFor(fake.url), backoff: TEST_BACKOFF });
  cleanups.push(async () => {
    await source.stop();
    store.close();
  });
  await source.start(store);
  store.flush();
  return store;
}

/** Polls until the followed store shows what a from-scratch listing builds (watch events arrive asynchronously). */
async function converged(followed: Store, scratch: string, deadlineMs = 15_000): Promise<string> {
  const until = Date.now() + deadlineMs;
  let seen = '';
  for (;;) {
    followed.flush();
    seen = ser(followed.snapshot());
    if (seen === scratch || Date.now() > until) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('kube watch events: an incremental build equals a build from scratch', () => {
  it('after random create/update/delete sequences, the followed store equals a fresh listing of the final state', async () => {
    const seen = { proxies: 0, ambientPods: 0, waypoints: 0, routes: 0, deletes: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(SLOTS - 1), fc.nat(11)), { minLength: 6, maxLength: 20 }),
        fc.array(edit, { minLength: 1, maxLength: 25 }),
        async (initial, edits) => {
          const fake = await startFake();
          cleanups.push(() => fake.stop());
          const present = new Set<number>();
          for (const [slot, variant] of initial) applyEdit(fake, present, { op: 'put', slot, variant });
          const followed = await follow(fake);
          // Half the edits one by one with a build between (each a small incremental change), the rest as a burst.
          const half = Math.ceil(edits.length / 2);
          for (const e of edits.slice(0, half)) {
            applyEdit(fake, present, e);
            await new Promise((r) => setTimeout(r, 2));
            followed.flush();
            followed.snapshot();
          }
          for (const e of edits.slice(half)) applyEdit(fake, present, e);
          const fresh = (await follow(fake)).snapshot();
          const scratch = ser(fresh);
          seen.proxies += fresh.proxies.length;
          seen.ambientPods += [...(fresh.ambient?.workloads.values() ?? [])].filter((w) => w.ambient).length;
          seen.waypoints += fresh.ambient?.waypoints.size ?? 0;
          seen.routes += fresh.virtualServices.length;
          seen.deletes += edits.filter((e) => e.op === 'del').length;
          expect(await converged(followed, scratch)).toBe(scratch);
          for (const c of cleanups.splice(0).reverse()) await c();
        },
      ),
      { numRuns: 12, endOnFailure: true }, // no shrinking: each failing run waits out the convergence deadline
    );
    // The generated sequences exercise what the build derives: sidecars, ambient pods, waypoints, routes, deletes.
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  }, 240_000);
});
