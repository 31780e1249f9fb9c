// The opt-in sign-in overlay (deploy/overlays/auth, issue #26 §2): reviews and impersonation only — no write
// verb on any resource (impersonated writes are authorized as the user) — and the args that turn sign-in on.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { planServe } from '../server/cli/commands/serve';

const DIR = dirname(fileURLToPath(import.meta.url));
const OVERLAY = join(DIR, 'overlays', 'auth');
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const read = (file: string): Doc[] => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Doc);

describe('deploy/overlays/auth', () => {
  const k = parse(readFileSync(join(OVERLAY, 'kustomization.yaml'), 'utf8')) as Doc;
  const [role] = read(join(OVERLAY, 'clusterrole-auth.yaml'));
  const [binding] = read(join(OVERLAY, 'clusterrolebinding-auth.yaml'));

  it('grants exactly TokenReview and SubjectAccessReview creation and impersonation of users and groups', () => {
    expect(() => new ClusterRole(role as never).validate()).not.toThrow();
    expect(() => new ClusterRoleBinding(binding as never).validate()).not.toThrow();
    expect(role?.rules).toEqual([
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] },
    ]);
    expect(binding?.roleRef.name).toBe(role?.metadata.name);
    expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: 'meshscope', namespace: 'meshscope' }]);
  });

  it("the base args plus the overlay's are a valid serve command with token sign-in (the last --auth wins)", async () => {
    const [dep] = read(join(DIR, 'deployment.yaml'));
    const base = dep?.spec.template.spec.containers[0].args as string[];
    const ops = parse(k.patches[0].patch) as { path: string; value: unknown }[];
    const added = ops.filter((o) => o.path.endsWith('/args/-')).map((o) => String(o.value));
    const plan = await planServe([...base.slice(1), ...added], '/w', undefined, {});
    expect(plan.runtime).toMatchObject({ auth: 'token', allowApply: true, inCluster: true, address: '0.0.0.0' });
    expect(ops.some((o) => JSON.stringify(o.value).includes('MESHSCOPE_SESSION_SECRET'))).toBe(true);
  });

  it('the default manifests start open only because they say so', async () => {
    const [dep] = read(join(DIR, 'deployment.yaml'));
    const args = dep?.spec.template.spec.containers[0].args as string[];
    expect(args).toEqual(expect.arrayContaining(['--auth', 'none', '--i-understand-this-is-open']));
    expect((await planServe(args.slice(1), '/w', undefined, {})).runtime.auth).toBe('none');
  });
});
