// affectedProxies' per-snapshot index (configs by kind/namespace/name, services by owner and namespace) is carried
// from the previous snapshot across a VirtualService edit (affected.ts carriedIndex: the config map copied with the
// replaced VirtualServices swapped in) instead of built over every config. Invisible: through one store, a chain of
// VirtualService edits — a weight, exportTo narrowed and widened, a host retargeted, one renamed (not carried), two at
// once — gives, at every step, the answer made from snapshots without a memo (every index built from scratch). The
// exportTo edits fail it when the replaced VirtualService is not swapped in (its old exportTo would narrow the reach).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type MeshSnapshot } from '../model/mesh';
import { Store, type StoreChange } from '../sources/store';
import type { RawInput, RawObject } from '../sources/types';
import { affectedProxies } from './affected';

const origin = { source: 'file' as const, file: 'mesh.yaml' };
const ri = (object: RawObject): RawInput => ({ object, origin });
const service = (name: string, ns: string) =>
  ri({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns },
    spec: { selector: { app: name }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] },
  });
const pod = (name: string, ns: string, app: string, ip: string) =>
  ri({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app }, annotations: { 'sidecar.istio.io/status': '{}' } },
    spec: {
      containers: [
        { name: 'app', image: 'x' },
        { name: 'istio-proxy', image: 'proxyv2' },
      ],
    },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
  });
/** The same RawInput for the same VirtualService (the store sees only the edited ones change). */
const made = new Map<string, RawInput>();
const vs = (name: string, ns: string, host: string, weight: number, exportTo?: string[]): RawInput => {
  const key = JSON.stringify([name, ns, host, weight, exportTo]);
  const had = made.get(key);
  if (had) return had;
  const r = vsInput(name, ns, host, weight, exportTo);
  made.set(key, r);
  return r;
};
const vsInput = (name: string, ns: string, host: string, weight: number, exportTo?: string[]) =>
  ri({
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name, namespace: ns },
    spec: {
      hosts: [host],
      ...(exportTo ? { exportTo } : {}),
      http: [
        {
          route: [
            { destination: { host }, weight },
            { destination: { host: 'b.ns-b.svc.cluster.local' }, weight: 100 - weight },
          ],
        },
      ],
    },
  });

const base = [
  service('a', 'ns-a'),
  service('b', 'ns-b'),
  service('c', 'ns-c'),
  pod('a-1', 'ns-a', 'a', '10.0.0.1'),
  pod('b-1', 'ns-b', 'b', '10.0.0.2'),
  pod('c-1', 'ns-c', 'c', '10.0.0.3'),
];
const edits: RawInput[][] = [
  [vs('r1', 'ns-a', 'a', 80, ['.']), vs('r2', 'ns-c', 'c', 50, ['.'])],
  [vs('r1', 'ns-a', 'a', 70, ['.']), vs('r2', 'ns-c', 'c', 50, ['.'])],
  [vs('r1', 'ns-a', 'a', 70, ['*']), vs('r2', 'ns-c', 'c', 50, ['.'])],
  [vs('r1', 'ns-a', 'a', 70, ['.']), vs('r2', 'ns-c', 'c', 50, ['.'])],
  [vs('r1', 'ns-a', 'a', 70, ['ns-b']), vs('r2', 'ns-c', 'c', 50, ['.'])],
  [vs('r1', 'ns-a', 'c.ns-c.svc.cluster.local', 70, ['.']), vs('r2', 'ns-c', 'c', 40, ['.'])],
  [vs('r1-renamed', 'ns-a', 'a', 70, ['.']), vs('r2', 'ns-c', 'c', 40, ['.'])],
  [vs('r1-renamed', 'ns-a', 'a', 60, ['ns-b']), vs('r2', 'ns-c', 'c', 30, ['ns-a'])],
];

/** The snapshot without its memo: every index built from scratch. */
const bare = (s: MeshSnapshot): MeshSnapshot => ({ ...s, memo: undefined });

describe('affectedProxies carries its index across VirtualService edits', () => {
  it('answers as from scratch at every step of a chain of edits', () => {
    const store = new Store({ debounceMs: 1_000_000 });
    let change: StoreChange | undefined;
    store.onChange((_s, c) => (change = c));
    store.replace('t', [...base, ...edits[0]!]);
    store.flush();
    let prev = store.snapshot();
    expect(prev.memo).toBeDefined();
    let carried = 0;
    const answers: string[] = [];
    for (const edit of edits.slice(1)) {
      store.replace('t', [...base, ...edit]);
      store.flush();
      const next = store.snapshot();
      if (prev.virtualServices.length === next.virtualServices.length && prev.services === next.services) carried++;
      const got = affectedProxies(prev, next, change!, DEFAULT_OPTIONS);
      expect(got).toEqual(affectedProxies(bare(prev), bare(next), change!, DEFAULT_OPTIONS));
      answers.push(got.all ? 'all' : got.proxies.join(','));
      prev = next;
    }
    // The in-place edits were carried (same services, same VirtualService count): the path under test ran.
    expect(carried).toBeGreaterThanOrEqual(4);
    // Not every answer is 'all' or the same: the edits' reach differs (exportTo `*` reaches all, `.` its own namespace).
    expect(new Set(answers).size).toBeGreaterThanOrEqual(3);
    store.close();
  });
});
