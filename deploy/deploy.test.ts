// Offline validation of deploy/: every manifest against the Kubernetes OpenAPI schemas (the
// kubernetes-models validators), and the cross-references a cluster would only reveal at run time:
// the ClusterRole grants exactly the kinds+verbs the informers use, the binding/Service/Deployment
// point at each other, the kustomization lists every manifest.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { AMBIENT_PROBE_VERBS, AMBIENT_PROBES, RBAC_VERBS, requiredRbacRules, WATCHED_RESOURCES } from '../server/sources/kube/kubeSource';

const DIR = dirname(fileURLToPath(import.meta.url));
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const manifests = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
  .sort();
const docs: { file: string; doc: Doc }[] = manifests.flatMap((file) =>
  parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    return { file, doc: d.toJS() as Doc };
  }),
);
const one = (kind: string): Doc => {
  const found = docs.filter((d) => d.doc.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!.doc; // eslint-disable-line @typescript-eslint/no-non-null-assertion
};

const validators: Record<string, (d: Doc) => { validate(): void }> = {
  'v1/Namespace': (d) => new Namespace(d as never),
  'v1/ServiceAccount': (d) => new ServiceAccount(d as never),
  'v1/Service': (d) => new Service(d as never),
  'apps/v1/Deployment': (d) => new Deployment(d as never),
  'rbac.authorization.k8s.io/v1/ClusterRole': (d) => new ClusterRole(d as never),
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': (d) => new ClusterRoleBinding(d as never),
};

describe('deploy/ manifests', () => {
  it('every manifest validates against the Kubernetes schema', () => {
    expect(manifests).toEqual([
      'clusterrole.yaml',
      'clusterrolebinding.yaml',
      'deployment.yaml',
      'namespace.yaml',
      'service.yaml',
      'serviceaccount.yaml',
    ]);
    for (const { file, doc } of docs) {
      const make = validators[`${doc.apiVersion}/${doc.kind}`];
      expect(make, `${file}: unexpected ${doc.apiVersion} ${doc.kind}`).toBeDefined();
      expect(() => make?.(doc).validate(), file).not.toThrow();
    }
  });

  it('the validator does reject a broken manifest (the check above can fail)', () => {
    const broken = structuredClone(one('Deployment'));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'three-thousand';
    expect(() => new Deployment(broken as never).validate()).toThrow(/containerPort/);
  });

  it('the ClusterRole grants exactly get/list/watch on the kinds the informers watch, get/list for the ambient probe, nothing else', () => {
    const derived = new Map<string, Set<string>>();
    for (const r of WATCHED_RESOURCES) {
      for (const verb of RBAC_VERBS) {
        const key = `${r.group}|${r.plural}`;
        derived.set(key, (derived.get(key) ?? new Set()).add(verb));
      }
    }
    for (const r of AMBIENT_PROBES) derived.set(`${r.group}|${r.plural}`, new Set(AMBIENT_PROBE_VERBS));
    const granted = new Map<string, Set<string>>();
    for (const rule of one('ClusterRole').rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[]) {
      for (const g of rule.apiGroups)
        for (const res of rule.resources) {
          const key = `${g}|${res}`;
          const set = granted.get(key) ?? new Set<string>();
          for (const v of rule.verbs) set.add(v);
          granted.set(key, set);
        }
    }
    const norm = (m: Map<string, Set<string>>) =>
      Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    expect(norm(granted)).toEqual(norm(derived));
    expect(one('ClusterRole').rules).toEqual(requiredRbacRules());
    expect([...granted.keys()].some((k) => k.endsWith('|secrets'))).toBe(false);
  });

  it('binding, service account, Service and Deployment reference each other', () => {
    const ns = one('Namespace').metadata.name;
    const sa = one('ServiceAccount');
    const binding = one('ClusterRoleBinding');
    const dep = one('Deployment');
    const svc = one('Service');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: one('ClusterRole').metadata.name });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: sa.metadata.name, namespace: ns }]);
    for (const d of [sa, dep, svc]) expect(d.metadata.namespace).toBe(ns);
    const pod = dep.spec.template;
    expect(pod.spec.serviceAccountName).toBe(sa.metadata.name);
    expect(dep.spec.selector.matchLabels).toEqual(expect.objectContaining(svc.spec.selector));
    for (const [k, v] of Object.entries(svc.spec.selector as Record<string, string>)) expect(pod.metadata.labels[k]).toBe(v);
    const c = pod.spec.containers[0];
    expect(c.args.slice(0, 2)).toEqual(['serve', '--in-cluster']);
    const portByName = Object.fromEntries((c.ports as { name: string; containerPort: number }[]).map((p) => [p.name, p.containerPort]));
    expect(svc.spec.ports.map((p: { port: number; targetPort: string }) => [p.port, portByName[p.targetPort]])).toEqual([
      [3000, 3000],
      [15010, 15010],
    ]);
    expect(c.readinessProbe.httpGet).toEqual({ path: '/api/healthz', port: 'http-ui' });
    expect(c.resources.requests).toBeDefined();
    expect(c.resources.limits).toBeDefined();
  });

  it('the pod and the image bind every interface explicitly (meshscope binds loopback by default, issue 14 item 9)', () => {
    const args = one('Deployment').spec.template.spec.containers[0].args as string[];
    const flag = (name: string) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
    expect(flag('--address')).toEqual(['0.0.0.0']);
    // The Service's own names pass the Host check (a probe or in-cluster client using them).
    expect(flag('--allowed-host')).toEqual(expect.arrayContaining([`meshscope.${one('Namespace').metadata.name}.svc`]));
    const dockerfile = readFileSync(join(DIR, '..', 'Dockerfile'), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtimeStage).toMatch(/^ENV .*\bMESHSCOPE_ADDRESS=0\.0\.0\.0\b/m);
  });

  it('kustomization.yaml lists every manifest, and its replicas/images target the Deployment', () => {
    const k = parseAllDocuments(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8'))[0]?.toJS() as Doc;
    expect(k.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
    expect(k.kind).toBe('Kustomization');
    expect([...k.resources].sort()).toEqual(manifests);
    expect(k.namespace).toBe(one('Namespace').metadata.name);
    const dep = one('Deployment');
    expect(k.replicas).toEqual([{ name: dep.metadata.name, count: expect.any(Number) }]);
    expect(k.images.map((i: { name: string }) => i.name)).toEqual([dep.spec.template.spec.containers[0].image.split(':')[0]]);
  });
});
