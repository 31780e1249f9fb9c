// PeerAuthentication selection and composition (model/authentication.go GetPeerAuthenticationsForWorkload,
// GetNamespaceMutualTLSMode; security/authn/policy_applier.go ComposePeerAuthentication — the cases of
// policy_applier_test.go TestComposePeerAuthentication, restated) and the parse/validation of the kind
// (pkg/config/validation ValidatePeerAuthentication).
import { describe, expect, it } from 'vitest';
import { meshFromYaml } from '../testing/yamlMesh';
import { composePeerAuthentication, modeForPort, namespaceMtlsMode, peerAuthenticationsFor } from './peerAuthentication';

const pa = (name: string, ns: string, body: string, created = '2020-01-01T00:00:00Z') => `apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: ${name}, namespace: ${ns}, creationTimestamp: "${created}"}
spec:
${body}
---
`;
const ROOT = 'istio-system';
const compose = (yaml: string, ns = 'foo', labels: Record<string, string> = { app: 'foo' }) => {
  const snap = meshFromYaml(yaml);
  return composePeerAuthentication(peerAuthenticationsFor(snap, ns, labels, ROOT), ROOT);
};

describe('ComposePeerAuthentication', () => {
  it('no policy: PERMISSIVE from the mesh default', () => {
    expect(compose('')).toMatchObject({ mode: 'PERMISSIVE', source: { kind: 'default' } });
  });
  it('mesh only: the root namespace policy (the oldest when there are several)', () => {
    const m = compose(pa('new', ROOT, '  mtls: {mode: DISABLE}', '2021-01-01T00:00:00Z') + pa('old', ROOT, '  mtls: {mode: STRICT}'));
    expect(m).toMatchObject({ mode: 'STRICT', source: { name: 'old', scope: 'mesh', path: 'spec.mtls.mode' } });
    expect(m.source).toMatchObject({ config: '/apis/security.istio.io/v1/namespaces/istio-system/peer-authentication/old' });
  });
  it('mesh and namespace: the namespace wins; an UNSET namespace mode inherits the mesh one', () => {
    expect(compose(pa('m', ROOT, '  mtls: {mode: STRICT}') + pa('n', 'foo', '  mtls: {mode: PERMISSIVE}')).mode).toBe('PERMISSIVE');
    expect(compose(pa('m', ROOT, '  mtls: {mode: STRICT}') + pa('n', 'foo', '  mtls: {mode: UNSET}'))).toMatchObject({
      mode: 'STRICT',
      source: { name: 'm' },
    });
  });
  it("another namespace's policy does not apply", () => {
    expect(compose(pa('n', 'bar', '  mtls: {mode: STRICT}')).mode).toBe('PERMISSIVE');
  });
  it('workload: a matching selector wins over namespace and mesh; a non-matching one is ignored', () => {
    const yaml =
      pa('m', ROOT, '  mtls: {mode: STRICT}') +
      pa('n', 'foo', '  mtls: {mode: STRICT}') +
      pa('w', 'foo', '  selector: {matchLabels: {app: foo}}\n  mtls: {mode: DISABLE}') +
      pa('x', 'foo', '  selector: {matchLabels: {app: other}}\n  mtls: {mode: PERMISSIVE}');
    expect(compose(yaml)).toMatchObject({ mode: 'DISABLE', source: { name: 'w', scope: 'workload' } });
  });
  it('a selector in the root namespace is not a mesh policy and selects nothing', () => {
    expect(compose(pa('s', ROOT, '  selector: {matchLabels: {app: foo}}\n  mtls: {mode: STRICT}')).mode).toBe('PERMISSIVE');
  });
  it('port level: overrides by workload port; an unset port mode inherits the workload-wide mode', () => {
    const m = compose(
      pa('n', 'foo', '  mtls: {mode: STRICT}') +
        pa('w', 'foo', '  selector: {matchLabels: {app: foo}}\n  portLevelMtls:\n    8080: {mode: DISABLE}\n    9090: {mode: UNSET}'),
    );
    expect(m.mode).toBe('STRICT');
    expect(modeForPort(m, 8080)).toMatchObject({ mode: 'DISABLE', source: { path: 'spec.portLevelMtls.8080.mode' } });
    expect(modeForPort(m, 9090)).toMatchObject({ mode: 'STRICT', source: { name: 'n' } });
    expect(modeForPort(m, 7070).mode).toBe('STRICT');
  });
});

describe('GetNamespaceMutualTLSMode (what clients infer for a service)', () => {
  const snap = meshFromYaml(
    pa('m', ROOT, '  mtls: {mode: STRICT}') +
      pa('n', 'foo', '  mtls: {mode: DISABLE}') +
      pa('w', 'bar', '  selector: {matchLabels: {app: x}}\n  mtls: {mode: DISABLE}'),
  );
  it('the namespace policy, else the mesh one; workload policies are not consulted', () => {
    expect(namespaceMtlsMode(snap, 'foo', ROOT)?.mode).toBe('DISABLE');
    expect(namespaceMtlsMode(snap, 'bar', ROOT)?.mode).toBe('STRICT');
    expect(namespaceMtlsMode(meshFromYaml(''), 'bar', ROOT)).toBeUndefined();
  });
});

describe('PeerAuthentication inputs (ValidatePeerAuthentication)', () => {
  it('v1 and v1beta1 load; other groups and versions are reported', () => {
    const snap = meshFromYaml(
      pa('a', 'foo', '  mtls: {mode: STRICT}') +
        pa('b', 'foo', '  mtls: {mode: STRICT}').replace('security.istio.io/v1', 'security.istio.io/v1beta1') +
        pa('c', 'foo', '  mtls: {mode: STRICT}').replace('security.istio.io/v1', 'security.istio.io/v1alpha1'),
    );
    expect(snap.peerAuthentications.map((p) => p.meta.name)).toEqual(['a', 'b']);
    expect(snap.errors).toContainEqual(
      expect.objectContaining({
        path: 'apiVersion',
        message: expect.stringContaining('unsupported apiVersion security.istio.io/v1alpha1'),
      }),
    );
  });
  it('port-level mTLS needs a selector, ports are 1..65535, modes are an enum', () => {
    const snap = meshFromYaml(
      pa('nosel', 'foo', '  portLevelMtls:\n    8080: {mode: STRICT}') +
        pa('badport', 'foo', '  selector: {matchLabels: {app: foo}}\n  portLevelMtls:\n    "0": {mode: STRICT}') +
        pa('badmode', 'foo', '  mtls: {mode: STRICTEST}'),
    );
    expect(snap.peerAuthentications).toEqual([]);
    const msgs = snap.errors.map((e) => `${e.object} ${e.path}: ${e.message}`);
    expect(msgs).toContainEqual(
      expect.stringContaining(
        'PeerAuthentication foo/nosel spec.portLevelMtls: mesh/namespace peer authentication cannot have port level mTLS',
      ),
    );
    expect(msgs).toContainEqual(
      expect.stringContaining('PeerAuthentication foo/badport spec.portLevelMtls.0: port must be in range 1..65535'),
    );
    expect(msgs).toContainEqual(expect.stringContaining('PeerAuthentication foo/badmode spec.mtls.mode'));
  });
});
