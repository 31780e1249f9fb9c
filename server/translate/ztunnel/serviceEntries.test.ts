// ServiceEntries and WorkloadEntries in ztunnel's view, against istiod pilot/pkg/serviceregistry/ambient:
// ambientindex_serviceentry_test.go TestAmbientIndex_ServiceEntry (an inline endpoint whose `http` port overrides
// the entry's target port; a WorkloadEntry's canonical name from its `app` label), TestAmbientIndexDuplicates,
// ambientindex_workloadentry_test.go TestAmbientIndex_WorkloadEntries (a ServiceEntry's workloadSelector selects
// WorkloadEntries and pods: PILOT_ENABLE_SERVICEENTRY_SELECT_PODS), services.go selectWorkloadServices (one winner per
// namespace, the oldest canonical) and constructServiceEntries (NONE resolution passes through), workloads.go
// serviceEntryWorkloadBuilder (a DNS entry without endpoints gets a hostname workload per host).
import { describe, expect, it } from 'vitest';
import { optionsOf } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { loadPaths } from '../../sources/file/loadPaths';
import { buildZtunnelView } from './index';
import { ipJson } from './ip';
import { serviceEntryUid, workloadEntryUid } from './serviceEntries';

const view = (yaml: string, ambient = true) => {
  const snap = buildSnapshot(loadPaths(['-'], { stdin: yaml }).inputs, { version: 1, ...(ambient ? { ambient: true } : {}) });
  return buildZtunnelView(snap, optionsOf(snap));
};

// generateServiceEntry("se.istio.io", ["240.240.23.45"], nil, ["127.0.0.1"]) of ambientindex_test.go.
const INLINE = `
apiVersion: v1
kind: Namespace
metadata: { name: ns1 }
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: name1, namespace: ns1 }
spec:
  hosts: [se.istio.io]
  addresses: [240.240.23.45]
  ports: [{ name: http, number: 80, targetPort: 8080 }]
  resolution: STATIC
  endpoints: [{ address: 127.0.0.1, ports: { http: 8081 } }]
`;

describe('ServiceEntry with inline endpoints (TestAmbientIndex_ServiceEntry)', () => {
  const v = view(INLINE);
  it('the entry is a Service: its addresses, ports (targetPort defaults to the number) and canonical', () => {
    expect(v.services).toEqual([
      {
        name: 'name1',
        namespace: 'ns1',
        hostname: 'se.istio.io',
        addresses: [{ address: ipJson('240.240.23.45') }],
        ports: [{ servicePort: 80, targetPort: 8080 }],
        canonical: true,
      },
    ]);
  });
  it('each endpoint is a Workload named after the entry, its port override applied', () => {
    expect(v.workloads).toEqual([
      {
        uid: serviceEntryUid('Kubernetes', 'ns1', 'name1', '127.0.0.1'),
        name: 'name1',
        namespace: 'ns1',
        addresses: [ipJson('127.0.0.1')],
        canonicalName: 'name1',
        canonicalRevision: 'latest',
        workloadType: 'POD',
        workloadName: 'name1',
        services: { 'ns1/se.istio.io': { ports: [{ servicePort: 80, targetPort: 8081 }] } },
        clusterId: 'Kubernetes',
      },
    ]);
    expect(serviceEntryUid('Kubernetes', 'ns1', 'name1', '127.0.0.1')).toBe(
      'Kubernetes/networking.istio.io/ServiceEntry/ns1/name1/127.0.0.1',
    );
  });
  it('without the ambient profile nothing is sent', () => {
    expect(view(INLINE, false)).toEqual({ workloads: [], services: [], policies: [], errors: [] });
  });
});

describe('WorkloadEntries (TestAmbientIndex_WorkloadEntries)', () => {
  const v = view(`
apiVersion: networking.istio.io/v1
kind: WorkloadEntry
metadata: { name: name0, namespace: ns1, labels: { app: a } }
spec: { address: 140.140.0.10, serviceAccount: sa1 }
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: se, namespace: ns1 }
spec:
  hosts: [se.istio.io]
  ports: [{ name: http, number: 80, targetPort: 8080 }]
  resolution: STATIC
  workloadSelector: { labels: { app: a } }
---
apiVersion: v1
kind: Pod
metadata: { name: pod1, namespace: ns1, labels: { app: a } }
spec: { serviceAccountName: sa1, containers: [{ name: app, image: x }] }
status: { podIP: 140.140.0.11, phase: Running }
`);
  const we = v.workloads.find((w) => w.uid === workloadEntryUid('Kubernetes', 'ns1', 'name0'))!;
  it('a WorkloadEntry is a Workload: generateWorkloadEntryUID, canonical name from its app label, its service account', () => {
    expect(workloadEntryUid('Kubernetes', 'ns1', 'name0')).toBe('Kubernetes/networking.istio.io/WorkloadEntry/ns1/name0');
    expect(we).toMatchObject({
      name: 'name0',
      namespace: 'ns1',
      addresses: [ipJson('140.140.0.10')],
      serviceAccount: 'sa1',
      canonicalName: 'a',
      canonicalRevision: 'latest',
      workloadType: 'POD',
      workloadName: 'name0',
      clusterId: 'Kubernetes',
    });
  });
  it("the entry's workloadSelector selects the WorkloadEntry and the pod (its target port, no named override)", () => {
    expect(we['services']).toEqual({ 'ns1/se.istio.io': { ports: [{ servicePort: 80, targetPort: 8080 }] } });
    const pod = v.workloads.find((w) => w['name'] === 'pod1')!;
    expect(pod['services']).toEqual({ 'ns1/se.istio.io': { ports: [{ servicePort: 80, targetPort: 8080 }] } });
    // A selector entry has no endpoints of its own: no ServiceEntry workload.
    expect(v.workloads.filter((w) => w.uid.includes('/ServiceEntry/'))).toEqual([]);
  });
});

describe('selectWorkloadServices: one per namespace and hostname, the oldest canonical', () => {
  const se = (name: string, ns: string, ts: string) => `
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: ${name}, namespace: ${ns}, creationTimestamp: "${ts}" }
spec:
  hosts: [api.example.com]
  ports: [{ name: https, number: 443, protocol: TLS }]
  resolution: NONE
`;
  const v = view(
    [se('newer', 'a', '2026-01-02T00:00:00Z'), se('older', 'a', '2026-01-01T00:00:00Z'), se('other', 'b', '2025-12-01T00:00:00Z')].join(
      '---\n',
    ),
  );
  it('the newer duplicate in namespace a is dropped; b keeps its own; the oldest overall is canonical', () => {
    expect(v.services.map((s) => [s.namespace, s['name'], s['canonical'] ?? false])).toEqual([
      ['a', 'older', false],
      ['b', 'other', true],
    ]);
  });
  it('resolution NONE passes through (PASSTHROUGH, ALLOW_ALL); TLS is the app protocol', () => {
    expect(v.services[0]!['loadBalancing']).toEqual({ mode: 'PASSTHROUGH', healthPolicy: 'ALLOW_ALL' });
    expect(v.services[0]!['ports']).toEqual([{ servicePort: 443, targetPort: 443, appProtocol: 'TLS' }]);
  });
});

describe('a DNS ServiceEntry without endpoints or selector (serviceEntryWorkloadBuilder implicitEndpoints)', () => {
  it('gets one hostname workload per host', () => {
    const v = view(`
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: { name: ext, namespace: ns1 }
spec:
  hosts: [a.example.com, b.example.com]
  ports: [{ name: http, number: 80 }]
  resolution: DNS
`);
    expect(v.workloads.map((w) => [w.uid, w['hostname'], Object.keys((w['services'] as object) ?? {})])).toEqual([
      [serviceEntryUid('Kubernetes', 'ns1', 'ext', 'a.example.com'), 'a.example.com', ['ns1/a.example.com']],
      [serviceEntryUid('Kubernetes', 'ns1', 'ext', 'b.example.com'), 'b.example.com', ['ns1/b.example.com']],
    ]);
  });
});
