// The incremental ztunnel view (memo.ts) against a from-scratch build: after each edit istiod's krt collections
// recompute only the Workloads / Services whose inputs changed (pilot/pkg/serviceregistry/ambient index.go, the
// Address collections joined from pods, services, waypoints and policies), and what ztunnel is sent must be
// exactly what a fresh build of the same snapshot sends. Snapshots come from the Store, so unchanged objects are
// shared between them as in the server.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RawInput } from '../../model/inputs';
import { optionsOf } from '../../model/mesh';
import { EncodeMemo, encodeTable } from '../../pipeline/encodeTable';
import { ZTUNNEL_PROXY } from '../../pipeline/ztunnelConfig';
import { loadPaths } from '../../sources/file/loadPaths';
import { Store } from '../../sources/store';
import { translateZtunnel } from './index';
import { ZtunnelMemo } from './memo';

const MESH = fileURLToPath(new URL('./testdata/ambient.yaml', import.meta.url));
const inputs = loadPaths([MESH]).inputs;

type Obj = Record<string, any>;
const find = (kind: string, name: string): RawInput => {
  const r = inputs.find((i) => (i.object as Obj)['kind'] === kind && (i.object as Obj)['metadata']?.['name'] === name);
  if (!r) throw new Error(`${kind} ${name} not in testdata`);
  return r;
};
const edited = (kind: string, name: string, edit: (o: Obj) => void): RawInput => {
  const r = find(kind, name);
  const object = structuredClone(r.object) as Obj;
  edit(object);
  return { ...r, object } as RawInput;
};

/** Every Address and Authorization on the wire: name → bytes (hex), in served order. */
function wire(r: ReturnType<typeof encodeTable>): string[] {
  return [...(r.addresses ?? []), ...(r.authorizations ?? [])].map((e) => `${e.typeUrl} ${e.name} ${Buffer.from(e.bytes).toString('hex')}`);
}

describe('incremental ztunnel view (ZtunnelMemo)', () => {
  const store = new Store({ debounceMs: 1 });
  store.setAmbient(true);
  store.replace('files', inputs);
  store.flush();
  const memo = new ZtunnelMemo();
  const encodeMemo = new EncodeMemo();
  const incremental = () => {
    const snap = store.snapshot();
    return encodeTable(ZTUNNEL_PROXY, snap.version, translateZtunnel(snap, ZTUNNEL_PROXY, optionsOf(snap), memo), encodeMemo);
  };
  const scratch = () => {
    const snap = store.snapshot();
    return encodeTable(ZTUNNEL_PROXY, snap.version, translateZtunnel(snap, ZTUNNEL_PROXY, optionsOf(snap)));
  };
  const step = (edit: () => void) => {
    edit();
    store.flush();
    const before = { hits: memo.hits, misses: memo.misses };
    const inc = incremental();
    const full = scratch();
    expect(wire(inc)).toEqual(wire(full));
    expect(inc.errors).toEqual(full.errors);
    return { hits: memo.hits - before.hits, misses: memo.misses - before.misses, wire: wire(inc) };
  };

  const first = step(() => {});
  const pods = first.hits + first.misses;

  it('a first build translates every pod', () => {
    expect(first.hits).toBe(0);
    expect(pods).toBeGreaterThan(3);
  });

  it('an unchanged snapshot reuses every Workload', () => {
    const s = step(() => store.replace('files', [...inputs]));
    expect(s).toMatchObject({ hits: pods, misses: 0 });
  });

  it('a pod IP change rebuilds that one Workload (krt recomputes one pod)', () => {
    const s = step(() =>
      store.upsert(
        'files',
        edited('Pod', 'productpage-v1-7d4f8-abcde', (o) => {
          o['status']['podIP'] = '10.244.1.99';
        }),
      ),
    );
    expect(s.misses).toBe(1);
    expect(s.wire.some((l) => l.includes(Buffer.from([10, 244, 1, 99]).toString('hex')))).toBe(true);
  });

  it('a pod delete drops its Workload', () => {
    // (File inputs without creationTimestamp get one from their place in the inputs, so the objects after the
    // deleted pod, the mesh-wide PeerAuthentication among them, change too: every Workload reads it.)
    const s = step(() => store.remove('files', { apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'reviews-v2-9f1e2-klmno' }));
    expect(s.wire.some((l) => l.includes('reviews-v2-9f1e2-klmno'))).toBe(false);
  });

  it('a pod label that binds it to the waypoint (istio.io/use-waypoint on the pod)', () => {
    const s = step(() =>
      store.upsert(
        'files',
        edited('Pod', 'reviews-v1-6c8d9-fghij', (o) => {
          o['metadata']['labels']['istio.io/use-waypoint'] = 'waypoint';
          o['metadata']['annotations']['istio.io/waypoint-for'] = 'all';
        }),
      ),
    );
    expect(s.misses).toBeGreaterThanOrEqual(1);
  });

  it('a Service edit (its target port) rebuilds the Workloads of its namespace', () => {
    const s = step(() =>
      store.upsert(
        'files',
        edited('Service', 'productpage', (o) => {
          o['spec']['ports'][0]['targetPort'] = 9090;
        }),
      ),
    );
    expect(s.misses).toBeGreaterThanOrEqual(1);
  });

  it('a namespace use-waypoint label moves the bindings of its Services and pods', () => {
    step(() =>
      store.upsert(
        'files',
        edited('Namespace', 'shop', (o) => {
          o['metadata']['labels']['istio.io/use-waypoint'] = 'waypoint';
        }),
      ),
    );
    step(() =>
      store.upsert(
        'files',
        edited('Gateway', 'waypoint', (o) => {
          o['metadata']['labels'] = { 'istio.io/waypoint-for': 'all' };
        }),
      ),
    );
  });

  it('policy edits: a PeerAuthentication and a selector AuthorizationPolicy removed', () => {
    const pa = edited('PeerAuthentication', 'default', (o) => {
      o['metadata'] = { name: 'reviews-permissive', namespace: 'shop' };
      o['spec'] = { selector: { matchLabels: { app: 'reviews' } }, mtls: { mode: 'PERMISSIVE' } };
    });
    const permissive = step(() => store.upsert('files', pa));
    expect(permissive.misses).toBeGreaterThanOrEqual(1);
    step(() =>
      store.remove('files', { apiVersion: 'security.istio.io/v1', kind: 'PeerAuthentication', namespace: 'istio-system', name: 'default' }),
    );
    step(() =>
      store.remove('files', { apiVersion: 'security.istio.io/v1', kind: 'AuthorizationPolicy', namespace: 'shop', name: 'reviews-viewer' }),
    );
  });

  it('back to the original inputs equals the first build', () => {
    const s = step(() => store.replace('files', inputs));
    expect(s.wire).toEqual(first.wire);
  });
});
