// Key material never enters meshscope: a Secret read from a real file, or given to the store by any source,
// keeps only metadata and type (DESIGN.md §3 Inputs, §6).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPaths } from './file/loadPaths';
import { Store } from './store';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-secret-'));
const stores: Store[] = [];
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const s of stores) s.close();
});

const KEY = 'LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t';
const yaml = `apiVersion: v1
kind: Secret
metadata: { name: shop-cert, namespace: istio-system }
type: kubernetes.io/tls
data: { tls.crt: Q0VSVA==, tls.key: ${KEY} }
stringData: { note: hunter2 }
`;

describe('Secrets from files', () => {
  it('are loaded without data or stringData', () => {
    const file = join(dir, 's.yaml');
    writeFileSync(file, yaml);
    const { inputs, errors } = loadPaths([file]);
    expect(errors).toEqual([]);
    expect(inputs.map((i) => i.object)).toEqual([
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'shop-cert', namespace: 'istio-system' }, type: 'kubernetes.io/tls' },
    ]);
  });
});

describe('Secrets given to the store', () => {
  it('are redacted on upsert and replace: neither the stored inputs nor the snapshot hold key material', () => {
    const store = new Store({ debounceMs: 1, maxDelayMs: 5 });
    stores.push(store);
    const object = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'ns' }, type: 'Opaque', data: { k: KEY } };
    store.upsert('kube', { object, origin: { source: 'kube' } });
    store.replace('files', [
      { object: { ...object, metadata: { name: 'b', namespace: 'ns' } }, origin: { source: 'file', file: 'x.yaml' } },
    ]);
    store.flush();
    const dump = JSON.stringify(store.inputs());
    expect(dump).toContain('"name":"a"');
    expect(dump).toContain('"name":"b"');
    expect(dump).not.toContain(KEY);
    const snap = store.snapshot();
    expect([...(snap.secrets?.byKey.keys() ?? [])].sort()).toEqual(['ns/a', 'ns/b']);
  });
});

describe('Secrets known through a watching source', () => {
  it('a kube source watching secrets makes them known even when none exist', () => {
    const store = new Store({ debounceMs: 1, maxDelayMs: 5 });
    stores.push(store);
    expect(store.snapshot().secrets?.known).toBe(false);
    store.status({ id: 'kube', kind: 'kube', state: 'connected', resources: { secrets: { state: 'connected', count: 0 } } });
    store.flush();
    expect(store.snapshot().secrets?.known).toBe(true);
    store.status({ id: 'kube', kind: 'kube', state: 'connected', resources: {} });
    store.flush();
    expect(store.snapshot().secrets?.known).toBe(false);
  });
});
