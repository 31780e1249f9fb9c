// The opt-in live-config overlay (deploy/overlays/live-config): port-forward RBAC (`get` and `create` on
// pods/portforward, what kubectl port-forward needs) and `--live-config` on the default Deployment. Validated
// offline like applyOverlay.test.ts.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const DIR = dirname(fileURLToPath(import.meta.url));
const OVERLAY = join(DIR, 'overlays', 'live-config');
type Doc = Record<string, any>;
const read = (file: string): Doc[] => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Doc);

describe('deploy/overlays/live-config', () => {
  const kustomization = parse(readFileSync(join(OVERLAY, 'kustomization.yaml'), 'utf8')) as Doc;

  it('builds on the default manifests and lists its own', () => {
    expect(kustomization.resources).toEqual(['../../', 'clusterrole-live-config.yaml', 'clusterrolebinding-live-config.yaml']);
  });

  it('grants exactly get and create on pods/portforward, bound to meshscope’s service account', () => {
    const [role] = read(join(OVERLAY, 'clusterrole-live-config.yaml'));
    const [binding] = read(join(OVERLAY, 'clusterrolebinding-live-config.yaml'));
    expect(() => new ClusterRole(role as never).validate()).not.toThrow();
    expect(() => new ClusterRoleBinding(binding as never).validate()).not.toThrow();
    expect(role?.rules).toEqual([{ apiGroups: [''], resources: ['pods/portforward'], verbs: ['get', 'create'] }]);
    expect(binding?.roleRef.name).toBe(role?.metadata.name);
    expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: 'meshscope', namespace: 'meshscope' }]);
  });

  it('the pods themselves are readable in the default role (the pod lookup before a port-forward)', () => {
    const [base] = read(join(DIR, 'clusterrole.yaml'));
    const pods = (base?.rules as Doc[]).find((r) => r.resources.includes('pods'));
    expect(pods?.verbs).toEqual(expect.arrayContaining(['get', 'list']));
  });

  it('patches the Deployment with --live-config', () => {
    const patch = parse(kustomization.patches[0].patch) as { op: string; path: string; value: unknown }[];
    expect(patch).toEqual([{ op: 'add', path: '/spec/template/spec/containers/0/args/-', value: '--live-config' }]);
  });
});
