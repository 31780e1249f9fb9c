// WorkloadEntry as an input and as endpoints. Validation follows pkg/config/validation ValidateWorkloadEntry
// (validation_test.go TestValidateWorkloadEntry); selection follows serviceentry/conversion.go and
// kube/controller/controller.go serviceInstancesFromWorkloadInstances / workloadInstanceHandler.
import { describe, expect, it } from 'vitest';
import type { RawInput } from '../inputs';
import { buildSnapshot } from '../snapshot';

const origin = (doc: number): RawInput['origin'] => ({ source: 'file', file: 'we.yaml', doc });
const we = (name: string, spec: unknown, ns = 'shop'): RawInput['object'] => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'WorkloadEntry',
  metadata: { name, namespace: ns },
  spec,
});
const snap = (objects: RawInput['object'][]) =>
  buildSnapshot(
    objects.map((object, i) => ({ object, origin: origin(i) })),
    { version: 1 },
  );
const endpointsOf = (s: ReturnType<typeof snap>, host: string, port: number, ns = 'shop') =>
  (s.endpoints.get(`${ns}/${host}`)?.get(port) ?? []).map((e) => `${e.address}:${e.port}`);

describe('WorkloadEntry input', () => {
  it('is read (no longer ignored) and kept in the snapshot', () => {
    const s = snap([we('vm', { address: '10.0.0.1', labels: { app: 'vm' } })]);
    expect(s.workloadEntries.map((w) => w.meta.name)).toEqual(['vm']);
    expect(s.errors).toEqual([]);
  });

  it.each([
    ['no address and no network', {}, 'spec.address', 'address is required'],
    ['a unix address with ports', { address: 'unix:///sock', ports: { http: 80 } }, 'spec.ports', 'must not include ports'],
    ['an invalid port name', { address: '10.0.0.1', ports: { Bad_Name: 80 } }, 'spec.ports.Bad_Name', 'invalid port name'],
    ['a port out of range', { address: '10.0.0.1', ports: { http: 70000 } }, 'spec.ports.http', '1..65535'],
    ['an address that is neither IP nor FQDN', { address: 'not a host' }, 'spec.address', 'not a valid FQDN or an IP address'],
    ['an invalid label', { address: '10.0.0.1', labels: { 'bad key!': 'x' } }, 'spec.labels.bad key!', 'invalid label key'],
  ])('%s is a located error and the entry is not used', (_, spec, path, message) => {
    const s = snap([we('vm', spec)]);
    expect(s.workloadEntries).toEqual([]);
    // Plus the one "not translated" note of an Istio object that fails validation (parse/rejected).
    expect(s.errors.filter((e) => e.notTranslated).map((e) => e.object)).toEqual(['WorkloadEntry shop/vm']);
    expect(s.errors.filter((e) => !e.notTranslated)).toEqual([
      expect.objectContaining({
        severity: 'error',
        object: 'WorkloadEntry shop/vm',
        path,
        file: 'we.yaml',
        doc: 0,
        message: expect.stringContaining(message),
      }),
    ]);
  });

  it('an entry without address but with a network is valid, and gives no endpoint (no network gateways modelled)', () => {
    const s = snap([SVC({ app: 'vm' }), we('vm', { network: 'vpc-1', labels: { app: 'vm' } })]);
    expect(s.errors).toEqual([]);
    expect(endpointsOf(s, 'legacy.shop.svc.cluster.local', 80)).toEqual([]);
  });
});

const SVC = (selector: Record<string, string> | undefined, extra: Record<string, unknown> = {}): RawInput['object'] => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'legacy', namespace: 'shop' },
  spec: { clusterIP: '10.96.0.9', ...(selector ? { selector } : {}), ports: [{ name: 'http', port: 80, targetPort: 8080 }], ...extra },
});

describe('Kubernetes Services select WorkloadEntries (serviceInstancesFromWorkloadInstances)', () => {
  const host = 'legacy.shop.svc.cluster.local';

  it('selected: same namespace, labels matching the selector, IP address', () => {
    const s = snap([SVC({ app: 'legacy' }), we('a', { address: '10.0.0.1', labels: { app: 'legacy' } })]);
    expect(endpointsOf(s, host, 80)).toEqual(['10.0.0.1:8080']);
  });

  it('not selected: another namespace, an unlabelled entry, a hostname or unix address', () => {
    const s = snap([
      SVC({ app: 'legacy' }),
      we('other-ns', { address: '10.0.0.2', labels: { app: 'legacy' } }, 'other'),
      we('dns', { address: 'vm.example.com', labels: { app: 'legacy' } }),
      we('uds', { address: 'unix:///var/run/x.sock', labels: { app: 'legacy' } }),
    ]);
    expect(endpointsOf(s, host, 80)).toEqual([]);
  });

  it('not for headless or selector-less services (only client-side LB services with a selector)', () => {
    const entry = we('a', { address: '10.0.0.1', labels: { app: 'legacy' } });
    expect(endpointsOf(snap([SVC({ app: 'legacy' }, { clusterIP: 'None' }), entry]), host, 80)).toEqual([]);
    expect(endpointsOf(snap([SVC(undefined), entry]), host, 80)).toEqual([]);
  });
});

describe('ServiceEntry workloadSelector (services() in serviceentry/conversion.go)', () => {
  const se = (resolution: string): RawInput['object'] => ({
    apiVersion: 'networking.istio.io/v1',
    kind: 'ServiceEntry',
    metadata: { name: 'vm', namespace: 'shop' },
    spec: { hosts: ['vm.internal'], resolution, ports: [{ number: 80, name: 'http' }], workloadSelector: { labels: { app: 'vm' } } },
  });

  it('hostname-addressed entries only for DNS entries; unix sockets become port-0 socket paths', () => {
    const entries = [
      we('ip', { address: '10.0.0.1', labels: { app: 'vm' } }),
      we('dns', { address: 'vm.example.com', labels: { app: 'vm' } }),
    ];
    expect(endpointsOf(snap([se('STATIC'), ...entries]), 'vm.internal', 80)).toEqual(['10.0.0.1:80']);
    expect(endpointsOf(snap([se('DNS'), ...entries]), 'vm.internal', 80).sort()).toEqual(['10.0.0.1:80', 'vm.example.com:80']);
    const uds = snap([se('STATIC'), we('uds', { address: 'unix:///var/run/vm.sock', labels: { app: 'vm' } })]);
    // Not selected by STATIC (a unix address is DNSServiceEntryOnly); with DNS it is the socket path on port 0.
    expect(endpointsOf(uds, 'vm.internal', 80)).toEqual([]);
    expect(
      endpointsOf(snap([se('DNS'), we('uds', { address: 'unix:///var/run/vm.sock', labels: { app: 'vm' } })]), 'vm.internal', 80),
    ).toEqual(['/var/run/vm.sock:0']);
  });

  it('weight, locality (istio-locality label with dots), network and TLS mode come from the entry', () => {
    const s = snap([
      se('STATIC'),
      we('vm', { address: '10.0.0.1', labels: { app: 'vm', 'istio-locality': 'r1.z1' }, weight: 5, network: 'n1', serviceAccount: 'sa' }),
    ]);
    const ep = s.endpoints.get('shop/vm.internal')?.get(80)?.[0];
    expect(ep).toMatchObject({
      weight: 5,
      locality: { region: 'r1', zone: 'z1', subzone: '' },
      network: 'n1',
      tlsMode: 'istio',
      workloadName: 'vm',
    });
  });
});

describe('WorkloadEntry health checks (isHealthy, WORKLOAD_ENTRY_HEALTH_CHECKS)', () => {
  const se: RawInput['object'] = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'ServiceEntry',
    metadata: { name: 'vm', namespace: 'shop' },
    spec: {
      hosts: ['vm.internal'],
      resolution: 'STATIC',
      ports: [{ number: 80, name: 'http' }],
      workloadSelector: { labels: { app: 'vm' } },
    },
  };
  const probed = (name: string, address: string, healthy?: string): RawInput['object'] => ({
    ...we(name, { address, labels: { app: 'vm' } }),
    metadata: { name, namespace: 'shop', annotations: { 'proxy.istio.io/health-checks-enabled': 'true' } },
    ...(healthy ? { status: { conditions: [{ type: 'Healthy', status: healthy }] } } : {}),
  });

  it('an entry with health checks enabled counts only once its Healthy condition is True', () => {
    const s = snap([se, probed('up', '10.0.0.1', 'True'), probed('down', '10.0.0.2', 'False'), probed('unknown', '10.0.0.3')]);
    expect(endpointsOf(s, 'vm.internal', 80)).toEqual(['10.0.0.1:80']);
    expect(s.errors).toEqual([]);
  });
});

describe('pods as workload instances (kube/controller/pod.go onEvent: only ready pods with an IP)', () => {
  const pod = (name: string, ip: string, ready: boolean): RawInput['object'] => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', labels: { app: 'vm' } },
    spec: { containers: [{ name: 'app', image: 'app' }] },
    status: { podIP: ip, phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
  it('a ServiceEntry workloadSelector picks ready pods only', () => {
    const se: RawInput['object'] = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'ServiceEntry',
      metadata: { name: 'vm', namespace: 'shop' },
      spec: {
        hosts: ['vm.internal'],
        resolution: 'STATIC',
        ports: [{ number: 80, name: 'http' }],
        workloadSelector: { labels: { app: 'vm' } },
      },
    };
    expect(endpointsOf(snap([se, pod('ready', '10.0.0.1', true), pod('starting', '10.0.0.2', false)]), 'vm.internal', 80)).toEqual([
      '10.0.0.1:80',
    ]);
  });
});
