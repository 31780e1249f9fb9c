// Strict Istio spec schemas + webhook checks (istio/api networking/v1alpha3 protos;
// pilot/pkg/config/validation/validation.go).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateIstioSpec } from '../parse/validate';
import { parseInputs } from '../parse/objects';

const spec = (y: string) => parse(y) as unknown;

describe('VirtualService schema', () => {
  it('accepts the full HTTP route surface (match, route headers, redirect-free actions, retries, fault, mirrors, cors)', () => {
    const r = validateIstioSpec(
      'VirtualService',
      spec(`
hosts: [reviews, "*.example.com"]
gateways: [mesh, istio-system/gw]
exportTo: ["."]
http:
- name: main
  match:
  - name: m1
    uri: {prefix: /api}
    scheme: {exact: https}
    method: {exact: GET}
    authority: {regex: "a.*"}
    headers: {end-user: {exact: jason}, x-present: {}}
    port: 9080
    sourceLabels: {app: productpage}
    gateways: [mesh]
    queryParams: {q: {exact: "1"}}
    ignoreUriCase: true
    withoutHeaders: {x-debug: {exact: "1"}}
    sourceNamespace: default
    statPrefix: stats
  route:
  - destination: {host: reviews, subset: v1, port: {number: 9080}}
    weight: 75
    headers: {request: {set: {x-a: b}, add: {x-c: d}, remove: [x-e]}}
  - destination: {host: reviews, subset: v2}
    weight: 25
  rewrite: {uri: /, authority: reviews}
  timeout: 1.5s
  retries: {attempts: 3, perTryTimeout: 100ms, retryOn: "5xx,connect-failure,503", retryRemoteLocalities: true, backoff: 25ms}
  fault:
    delay: {fixedDelay: 7s, percentage: {value: 10}}
    abort: {httpStatus: 500, percentage: {value: 1.5}}
  mirrors:
  - destination: {host: reviews, subset: v3}
    percentage: {value: 5}
  corsPolicy:
    allowOrigins: [{exact: "https://a.example.com"}]
    allowMethods: [GET, POST]
    allowHeaders: [x-a]
    exposeHeaders: [x-b]
    maxAge: 24h
    allowCredentials: true
    unmatchedPreflights: IGNORE
  headers: {response: {remove: [server]}}
- directResponse: {status: 503, body: {string: unavailable}}
tcp:
- match: [{port: 27017, destinationSubnets: [10.0.0.0/8]}]
  route: [{destination: {host: mongo}}]
tls:
- match: [{sniHosts: [a.example.com], port: 443}]
  route: [{destination: {host: a.example.com}}]
`),
    );
    expect(r.issues).toEqual([]);
    expect(r.spec?.http?.[0]?.retries?.attempts).toBe(3);
  });

  it.each([
    ['hosts: [a]\nhttp: [{route: [{destination: {host: a}, weight: "eighty"}]}]', 'spec.http[0].route[0].weight', /expected number/],
    ['hosts: [a]\nhttp: [{route: [{destination: {host: a}}], timeout: 10}]', 'spec.http[0].timeout', /expected string/],
    ['hosts: [a]\nhttp: [{route: [{destination: {host: a}}], timeout: soon}]', 'spec.http[0].timeout', /invalid duration/],
    [
      'hosts: [a]\nhttp: [{match: [{uri: {prefix: /a, exact: /b}}], route: [{destination: {host: a}}]}]',
      'spec.http[0].match[0].uri',
      /oneof/,
    ],
    ['hosts: [a]\nhttp: [{redirect: {uri: /b, redirectCode: 304}}]', 'spec.http[0].redirect.redirectCode', /not a valid redirect code/],
    [
      'hosts: [a]\nhttp: [{route: [{destination: {host: a}}], retries: {attempts: 2, retryOn: "sometimes"}}]',
      'spec.http[0].retries.retryOn',
      /not a valid retryOn/,
    ],
    ['hosts: [a]\nhttp: [{route: [{destination: {host: a}}], fault: {}}]', 'spec.http[0].fault', /abort and\/or a delay/],
    ['hosts: [a]\nhttp: [{}]', 'spec.http[0]', /route, redirect, direct_response or delegate is required/],
    [
      'hosts: ["*"]\nhttp: [{route: [{destination: {host: a}}]}]',
      'spec.hosts[0]',
      /not allowed for virtual services bound to the mesh gateway/,
    ],
    ['hosts: [a]', 'spec', /http, tcp or tls must be provided/],
    [
      'hosts: [a.example.com]\ntls: [{match: [{sniHosts: [b.example.com]}], route: [{destination: {host: b}}]}]',
      'spec.tls[0].match[0].sniHosts[0]',
      /SNI host is not a compatible subset/,
    ],
    ['gateways: [gw]\nhttp: [{route: [{destination: {host: a}}]}]', 'spec.gateways', /delegate virtual service must have no gateways/],
    ['hosts: [a]\nhttp: [{route: [{destination: {host: a}, weight: 150}]}]', 'spec.http[0].route[0].weight', /weight 150 is not in range/],
    ['hosts: [a]\nexportTo: ["~", "."]\nhttp: [{route: [{destination: {host: a}}]}]', 'spec.exportTo', /cannot be combined/],
  ])('%s → error at the exact path', (y, path, message) => {
    const r = validateIstioSpec('VirtualService', spec(y));
    expect(r.spec).toBeUndefined();
    expect(r.issues).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('null members (YAML `key:` with no value) are treated as absent, as the API server prunes them', () => {
    const r = validateIstioSpec('VirtualService', spec('hosts: [a]\nhttp:\n- match:\n  route: [{destination: {host: a}}]'));
    expect(r.issues).toEqual([]);
  });
});

describe('objects Istio rejects, still read for analysis', () => {
  // istioctl analyze decodes YAML into the proto (a field left out is its zero value) and runs the analyzers
  // even when validation fails (IST0106); istiod's webhook rejects the object, so it is never translated.
  it('a route without a destination: read with an empty destination (host ""), reported once', () => {
    const r = validateIstioSpec('VirtualService', spec('hosts: [a]\nhttp: [{route: [{}, {destination: {host: a}}]}]'));
    expect(r.spec).toBeUndefined();
    expect(r.rejected?.http?.[0]?.route?.[0]).toEqual({ destination: { host: '' } });
    expect(r.issues.filter((i) => i.path.startsWith('spec.http[0].route[0]'))).toEqual([
      { path: 'spec.http[0].route[0].destination', message: 'required field missing (expected object)' },
    ]);
  });

  it('a Gateway without servers and a Sidecar without a spec are read (validation errors, no crash)', () => {
    const gw = validateIstioSpec('Gateway', spec('selector: {istio: ingressgateway}'));
    expect(gw.rejected).toEqual({ selector: { istio: 'ingressgateway' }, servers: [] });
    expect(gw.issues).toContainEqual({ path: 'spec.servers', message: 'gateway must have at least one server' });
    const sc = validateIstioSpec('Sidecar', undefined);
    expect(sc.rejected).toEqual({});
    expect(sc.issues).toEqual([{ path: 'spec', message: 'sidecar: empty configuration provided' }]);
  });

  it('a value of the wrong type leaves nothing to read', () => {
    const r = validateIstioSpec('VirtualService', spec('hosts: a'));
    expect(r.spec).toBeUndefined();
    expect(r.rejected).toBeUndefined();
  });
});

describe('unknown fields', () => {
  // kube-apiserver's default fieldValidation=Warn (KEP-2885, Kubernetes ≥ 1.25): an unknown field is pruned and
  // returned as a warning; the object is stored. A misspelt field is therefore visible but not fatal.
  it('a misspelt spec field is a located warning; the object still validates without it', () => {
    const r = validateIstioSpec('VirtualService', spec('hosts: [a]\nhttp: [{route: [{destination: {host: a, sbuset: v1}}]}]'));
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([{ path: 'spec.http[0].route[0].destination.sbuset', message: 'unknown field "sbuset" (ignored)' }]);
    expect(r.spec?.http?.[0]?.route?.[0]?.destination).toEqual({ host: 'a' });
  });

  it('unknown fields next to a real error: both are reported, the object is rejected for the error only', () => {
    const r = validateIstioSpec('VirtualService', spec('hosts: [a]\nbogus: 1\nhttp: [{route: [{destination: {host: a}, weight: "x"}]}]'));
    expect(r.warnings).toEqual([{ path: 'spec.bogus', message: 'unknown field "bogus" (ignored)' }]);
    expect(r.issues.map((i) => i.path)).toEqual(['spec.http[0].route[0].weight']);
    expect(r.spec).toBeUndefined();
  });
});

describe('other kinds', () => {
  it('DestinationRule: full traffic policy surface parses; duplicate subset and multiple hash keys are rejected', () => {
    const ok = validateIstioSpec(
      'DestinationRule',
      spec(`
host: reviews
exportTo: ["*"]
trafficPolicy:
  loadBalancer:
    consistentHash: {httpCookie: {name: user, ttl: 0s}, ringHash: {minimumRingSize: 1024}}
    localityLbSetting: {enabled: true, failover: [{from: us-east, to: us-west}]}
  connectionPool:
    tcp: {maxConnections: 100, connectTimeout: 30ms, tcpKeepalive: {time: 7200s, interval: 75s}}
    http: {http1MaxPendingRequests: 1, maxRequestsPerConnection: 1, h2UpgradePolicy: UPGRADE}
  outlierDetection: {consecutive5xxErrors: 7, interval: 5m, baseEjectionTime: 15m, maxEjectionPercent: 50}
  tls: {mode: ISTIO_MUTUAL, sni: reviews}
  portLevelSettings:
  - port: {number: 9080}
    loadBalancer: {simple: LEAST_REQUEST}
subsets:
- name: v1
  labels: {version: v1}
  trafficPolicy: {loadBalancer: {simple: ROUND_ROBIN}}
`),
    );
    expect(ok.issues).toEqual([]);
    const bad = validateIstioSpec(
      'DestinationRule',
      spec(`
host: reviews
trafficPolicy: {loadBalancer: {consistentHash: {httpHeaderName: a, useSourceIp: true}}}
subsets: [{name: v1}, {name: v1}]
`),
    );
    expect(bad.issues).toContainEqual({ path: 'spec.subsets[1].name', message: 'duplicate subset names: v1' });
    expect(bad.issues).toContainEqual({
      path: 'spec.trafficPolicy.loadBalancer.consistentHash',
      message: expect.stringMatching(/exactly one hash key/),
    });
    const badEnum = validateIstioSpec('DestinationRule', spec('host: r\ntrafficPolicy: {loadBalancer: {simple: FASTEST}}'));
    expect(badEnum.issues[0]?.path).toBe('spec.trafficPolicy.loadBalancer.simple');
  });

  it('accepts the rest of the API surface (retryBudget, zoneAwareLbSetting, http2KeepAlive, uint64 as string, tlsCertificates)', () => {
    const dr = validateIstioSpec(
      'DestinationRule',
      spec(`
host: a.example.com
trafficPolicy:
  retryBudget: {percent: 25, minRetryConcurrency: 3, budgetInterval: 10s}
  loadBalancer:
    zoneAwareLbSetting: {enabled: true, minClusterSize: "6"}
  connectionPool: {http: {http2KeepAlive: {interval: 30s, timeout: 5s}}}
  outlierDetection: {outlierDetectionHttpErrorCodes: [500, 503]}
`),
    );
    expect(dr.issues).toEqual([]);
    expect(dr.spec?.trafficPolicy?.loadBalancer).toMatchObject({ zoneAwareLbSetting: { minClusterSize: 6 } });
    // PortTrafficPolicy (destination_rule.proto) has no tunnel field.
    const port = validateIstioSpec(
      'DestinationRule',
      spec('host: a\ntrafficPolicy: {portLevelSettings: [{port: {number: 80}, tunnel: {targetHost: h, targetPort: 1}}]}'),
    );
    // An unknown field is a warning and is dropped (kube-apiserver fieldValidation=Warn); what is left is judged as usual.
    expect(port.warnings).toEqual([
      { path: 'spec.trafficPolicy.portLevelSettings[0].tunnel', message: 'unknown field "tunnel" (ignored)' },
    ]);
    const gw = validateIstioSpec(
      'Gateway',
      spec(`
servers:
- port: {number: 443, name: https, protocol: HTTPS}
  hosts: [a.example.com]
  tls: {mode: SIMPLE, tlsCertificates: [{serverCertificate: /c.pem, privateKey: /k.pem}], minProtocolVersion: TLSV1_2}
`),
    );
    expect(gw.issues).toEqual([]);
  });

  it('Gateway: invalid protocol, missing port name and duplicate port names are located', () => {
    const r = validateIstioSpec(
      'Gateway',
      spec(`
selector: {istio: ingressgateway}
servers:
- port: {number: 80, name: http, protocol: HTTP}
  hosts: ["*"]
- port: {number: 81, name: http, protocol: QUIC}
  hosts: ["ns/*.example.com"]
`),
    );
    expect(r.issues).toContainEqual({ path: 'spec.servers[1].port.protocol', message: expect.stringMatching(/invalid protocol "QUIC"/) });
    expect(r.issues).toContainEqual({
      path: 'spec.servers[1].port.name',
      message: 'port names in servers must be unique: duplicate name http',
    });
  });

  it('ServiceEntry: endpoints + workloadSelector conflict, unknown endpoint port name', () => {
    const r = validateIstioSpec(
      'ServiceEntry',
      spec(`
hosts: [a.example.com]
ports: [{number: 80, name: http, protocol: HTTP}]
resolution: STATIC
workloadSelector: {labels: {app: a}}
endpoints: [{address: 1.2.3.4, ports: {grpc: 90}}]
`),
    );
    expect(r.issues).toContainEqual({ path: 'spec', message: 'only one of WorkloadSelector or Endpoints is allowed in Service Entry' });
    expect(r.issues).toContainEqual({
      path: 'spec.endpoints[0].ports.grpc',
      message: 'endpoint port grpc is not defined by the service entry',
    });
  });

  it('Sidecar: egress hosts must be namespace/dnsName; the port-less egress listener must be last', () => {
    const r = validateIstioSpec(
      'Sidecar',
      spec(`
egress:
- hosts: ["./*"]
- port: {number: 9080, name: http, protocol: HTTP}
  hosts: ["reviews.default.svc.cluster.local"]
outboundTrafficPolicy: {mode: REGISTRY_ONLY}
`),
    );
    expect(r.issues).toContainEqual({
      path: 'spec.egress[0]',
      message: 'sidecar: the egress listener with empty port should be the last listener in the list',
    });
    expect(r.issues).toContainEqual({ path: 'spec.egress[1].hosts[0]', message: 'sidecar: host must be of form namespace/dnsName' });
  });
});

describe('kinds and apiVersions', () => {
  const origin = { source: 'file' as const, file: 'x.yaml', doc: 0 };
  const vs = (apiVersion: string) => ({
    object: {
      apiVersion,
      kind: 'VirtualService',
      metadata: { name: 'r', namespace: 'ns' },
      spec: { hosts: ['r'], http: [{ route: [{ destination: { host: 'r' } }] }] },
    },
    origin,
  });
  it('networking.istio.io v1, v1beta1 and v1alpha3 are all accepted; other versions are an error', () => {
    const p = parseInputs([
      vs('networking.istio.io/v1'),
      vs('networking.istio.io/v1beta1'),
      vs('networking.istio.io/v1alpha3'),
      vs('networking.istio.io/v2'),
    ]);
    expect(p.istio.VirtualService).toHaveLength(3);
    expect(p.errors).toEqual([
      {
        severity: 'error',
        message: expect.stringMatching(/unsupported apiVersion networking.istio.io\/v2/),
        object: 'VirtualService ns/r',
        path: 'apiVersion',
        file: 'x.yaml',
        doc: 0,
      },
    ]);
  });
  it('a Gateway API Gateway is not an Istio Gateway: it is read as a Gateway API object; an unknown Gateway API kind is warned about', () => {
    const gw = (name: string) => ({ object: { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name } }, origin });
    const udp = { object: { apiVersion: 'gateway.networking.k8s.io/v1alpha2', kind: 'UDPRoute', metadata: { name: 'u' } }, origin };
    const p = parseInputs([gw('a'), gw('b'), udp]);
    expect(p.istio.Gateway).toEqual([]);
    expect(p.gatewayApi.map((o) => [o.kind, o.meta.namespace, o.meta.name])).toEqual([
      ['Gateway', 'default', 'a'],
      ['Gateway', 'default', 'b'],
    ]);
    expect(p.errors).toEqual([
      { severity: 'warning', message: 'unknown kind UDPRoute (ignored)', object: 'UDPRoute u', file: 'x.yaml', doc: 0 },
    ]);
  });
  it('a Gateway API kind at a version istiod does not read is a located apiVersion error', () => {
    const p = parseInputs([
      { object: { apiVersion: 'gateway.networking.k8s.io/v1alpha2', kind: 'HTTPRoute', metadata: { name: 'r' } }, origin },
    ]);
    expect(p.gatewayApi).toEqual([]);
    expect(p.errors).toMatchObject([
      { severity: 'error', path: 'apiVersion', message: expect.stringMatching(/unsupported apiVersion .* for HTTPRoute/) },
    ]);
  });
  it('missing metadata.name and a Kubernetes field of the wrong type are located errors', () => {
    const p = parseInputs([
      { object: { apiVersion: 'v1', kind: 'Service', metadata: {} }, origin },
      { object: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 'eighty' }] } }, origin },
    ]);
    expect(p.errors.map((e) => [e.object, e.path])).toEqual([
      ['Service <unnamed>', 'metadata.name'],
      ['Service default/s', 'spec.ports[0].port'],
    ]);
    expect(p.services).toEqual([]);
  });
});
