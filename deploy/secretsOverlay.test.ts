// The opt-in Secrets overlay (deploy/overlays/secrets): the only place granting anything on Secrets — list and
// watch for the metadata-only informer (server/sources/kube/resources.ts SECRETS_RESOURCE), nothing else.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SECRETS_RESOURCE } from '../server/sources/kube/resources';

const DIR = dirname(fileURLToPath(import.meta.url));
const OVERLAY = join(DIR, 'overlays', 'secrets');
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const read = (file: string): Doc[] => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Doc);

describe('deploy/overlays/secrets', () => {
  it('builds on the default manifests and lists its own', () => {
    const k = parse(readFileSync(join(OVERLAY, 'kustomization.yaml'), 'utf8')) as Doc;
    expect(k.resources).toEqual(['../../', 'clusterrole-secrets.yaml', 'clusterrolebinding-secrets.yaml']);
  });

  it('grants list and watch on core secrets only (what the metadata-only informer uses), bound to meshscope', () => {
    const [role] = read(join(OVERLAY, 'clusterrole-secrets.yaml'));
    const [binding] = read(join(OVERLAY, 'clusterrolebinding-secrets.yaml'));
    expect(() => new ClusterRole(role as never).validate()).not.toThrow();
    expect(() => new ClusterRoleBinding(binding as never).validate()).not.toThrow();
    expect(role?.rules).toEqual([{ apiGroups: [SECRETS_RESOURCE.group], resources: [SECRETS_RESOURCE.plural], verbs: ['list', 'watch'] }]);
    expect(SECRETS_RESOURCE.metadataOnly).toBe(true);
    expect(binding?.roleRef.name).toBe(role?.metadata.name);
    expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: 'meshscope', namespace: 'meshscope' }]);
  });
});
