// The opt-in apply overlay (deploy/overlays/apply): the only place with write verbs; it adds --allow-apply
// and the token file to the default Deployment. Validated offline like deploy.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const DIR = dirname(fileURLToPath(import.meta.url));
const OVERLAY = join(DIR, 'overlays', 'apply');
type Doc = Record<string, any>;
const read = (file: string): Doc[] => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Doc);
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection', '*'];

describe('deploy/overlays/apply', () => {
  const kustomization = parse(readFileSync(join(OVERLAY, 'kustomization.yaml'), 'utf8')) as Doc;

  it('builds on the default manifests and lists its own', () => {
    expect(kustomization.resources).toEqual(['../../', 'clusterrole-apply.yaml', 'clusterrolebinding-apply.yaml']);
  });

  it('grants write verbs on Istio networking objects only, and binds them to meshscope’s service account', () => {
    const [role] = read(join(OVERLAY, 'clusterrole-apply.yaml'));
    const [binding] = read(join(OVERLAY, 'clusterrolebinding-apply.yaml'));
    expect(() => new ClusterRole(role as never).validate()).not.toThrow();
    expect(() => new ClusterRoleBinding(binding as never).validate()).not.toThrow();
    for (const rule of role?.rules ?? []) {
      expect(rule.apiGroups).toEqual(['networking.istio.io']);
      expect(rule.verbs).toEqual(['create', 'patch', 'delete']);
    }
    expect(binding?.roleRef.name).toBe(role?.metadata.name);
    expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: 'meshscope', namespace: 'meshscope' }]);
  });

  it('the default manifests grant no write verb at all', () => {
    for (const f of readdirSync(DIR).filter((x) => x.endsWith('.yaml')))
      for (const d of read(join(DIR, f)))
        for (const rule of (d.rules ?? []) as { verbs: string[] }[]) expect(rule.verbs.filter((v) => WRITE.includes(v))).toEqual([]);
  });

  it('patches the Deployment with --allow-apply and --auth-token-file on a mounted Secret', () => {
    const patch = parse(kustomization.patches[0].patch) as { op: string; path: string; value: unknown }[];
    expect(patch.filter((p) => p.path.endsWith('/args/-')).map((p) => p.value)).toEqual([
      '--allow-apply',
      '--auth-token-file',
      '/var/run/meshscope/token',
    ]);
    const [deployment] = read(join(DIR, 'deployment.yaml'));
    const pod = deployment?.spec.template.spec;
    // The JSON-patch appends need these lists to exist in the base.
    expect(Array.isArray(pod.volumes) && Array.isArray(pod.containers[0].volumeMounts) && Array.isArray(pod.containers[0].args)).toBe(true);
  });
});
