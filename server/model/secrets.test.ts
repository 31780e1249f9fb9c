// Secrets: metadata and type only. Key material is discarded where objects enter and never reaches the snapshot.
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from './snapshot';
import { credentialMissing, credentialSecretRef, redactSecret } from './secrets';

const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'cert',
    namespace: 'istio-system',
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"tls.key":"S0VZ"}}', keep: 'me' },
  },
  type: 'kubernetes.io/tls',
  data: { 'tls.crt': 'Q0VSVA==', 'tls.key': 'S0VZ' },
  stringData: { extra: 'plain-secret' },
};

describe('redactSecret', () => {
  it('keeps apiVersion, kind, metadata, type; drops data, stringData and the last-applied copy', () => {
    const r = redactSecret(secret);
    expect(r).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cert', namespace: 'istio-system', annotations: { keep: 'me' } },
      type: 'kubernetes.io/tls',
    });
    expect(JSON.stringify(r)).not.toMatch(/S0VZ|Q0VSVA|plain-secret/);
  });

  it('leaves other kinds alone', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } };
    expect(redactSecret(cm)).toBe(cm);
  });
});

describe('Secrets in the snapshot', () => {
  it('index the Secret by namespace/name with its type; no key material anywhere in the snapshot', () => {
    const s = buildSnapshot([{ object: structuredClone(secret), origin: { source: 'file', file: 's.yaml', doc: 0 } }], { version: 1 });
    expect(s.secrets?.known).toBe(true);
    expect(s.secrets?.byKey.get('istio-system/cert')).toMatchObject({ name: 'cert', namespace: 'istio-system', type: 'kubernetes.io/tls' });
    const dump = JSON.stringify(s, (_k, v) => (v instanceof Map ? [...v.entries()] : v));
    expect(dump).not.toMatch(/S0VZ|Q0VSVA|plain-secret/);
    expect(s.errors).toEqual([]);
  });

  it('are unknown when no Secret is given (nothing can be called missing), known when watched', () => {
    expect(buildSnapshot([], { version: 1 }).secrets?.known).toBe(false);
    expect(buildSnapshot([], { version: 1, secretsWatched: true }).secrets?.known).toBe(true);
  });
});

describe('credential lookup (model/credentials ParseResourceName)', () => {
  it('name and kubernetes://name resolve in the proxy namespace; ns/name forms name theirs; other schemes are not Secrets', () => {
    expect(credentialSecretRef('c', 'istio-system')).toEqual({ namespace: 'istio-system', name: 'c' });
    expect(credentialSecretRef('kubernetes://c', 'gw')).toEqual({ namespace: 'gw', name: 'c' });
    expect(credentialSecretRef('kubernetes-gateway://ns/c', 'gw')).toEqual({ namespace: 'ns', name: 'c' });
    expect(credentialSecretRef('builtin://', 'gw')).toBeUndefined();
    expect(credentialSecretRef('configmap://ca', 'gw')).toBeUndefined();
  });

  it('missing only when Secrets are known and the Secret is absent', () => {
    const index = {
      known: true,
      byKey: new Map([['istio-system/c', { name: 'c', namespace: 'istio-system', type: '', origin: { source: 'kube' as const } }]]),
    };
    expect(credentialMissing(index, 'c', 'istio-system')).toBe(false);
    expect(credentialMissing(index, 'd', 'istio-system')).toBe(true);
    expect(credentialMissing(index, 'c', 'other')).toBe(true);
    expect(credentialMissing({ known: false, byKey: new Map() }, 'd', 'istio-system')).toBe(false);
  });
});
