import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../model/mesh';
import type { VirtualServiceSpec } from '../../model/istio';
import { buildSnapshot, istio, pod, port, proxyOf, service, timeAt } from '../testing/meshBuilder';
import { buildProxyView } from './buildProxyView';
import { resolveGatewayName, virtualServicesForGateway } from './virtualServices';

const O = DEFAULT_OPTIONS;
const hosts = (v: { services: readonly { hostname: string }[] }) => v.services.map((s) => s.hostname);
const names = (v: { virtualServices: readonly { meta: { namespace: string; name: string } }[] }) =>
  v.virtualServices.map((x) => `${x.meta.namespace}/${x.meta.name}`);

const client = pod('client-1', 'default', '10.0.0.5', { labels: { app: 'client' } });
const vs = (name: string, ns: string, spec: VirtualServiceSpec, created?: string) =>
  istio('VirtualService', name, ns, spec, created ? { created } : {});

describe('service visibility by exportTo (push_context.go:IsServiceVisible)', () => {
  const snap = buildSnapshot({
    services: [
      service('pub', 'a'),
      service('priv', 'a', { exportTo: ['.'] }),
      service('none', 'a', { exportTo: ['~'] }),
      service('tob', 'a', { exportTo: ['b'] }),
      service('star', 'a', { exportTo: ['*'] }),
    ],
    pods: [pod('pa', 'a', '10.0.0.1'), pod('pb', 'b', '10.0.0.2')],
  });
  it.each([
    ['a', ['pub.a.svc.cluster.local', 'priv.a.svc.cluster.local', 'star.a.svc.cluster.local']],
    ['b', ['pub.a.svc.cluster.local', 'tob.a.svc.cluster.local', 'star.a.svc.cluster.local']],
  ])('a proxy in namespace %s sees: empty/* → all, "." → own ns, "~" → nobody, a name → only that ns', (ns, want) => {
    const p = snap.proxies.find((x) => x.namespace === ns)!;
    expect(hosts(buildProxyView(snap, p, O)).sort()).toEqual([...want].sort());
  });
});

describe('Sidecar scoping (push_context.go:getSidecarScope, sidecar.go:selectServices)', () => {
  const services = [
    service('reviews', 'default'),
    service('ratings', 'default'),
    service('istiod', 'istio-system'),
    service('db', 'other'),
  ];
  const sidecar = (name: string, ns: string, egress: string[], extra: object = {}) =>
    istio('Sidecar', name, ns, { egress: [{ hosts: egress }], ...extra });

  it('"./*" imports only the proxy namespace; "istio-system/*" adds that namespace', () => {
    const snap = buildSnapshot({ services, pods: [client], configs: [sidecar('s', 'default', ['./*', 'istio-system/*'])] });
    expect(hosts(buildProxyView(snap, snap.proxies[0]!, O)).sort()).toEqual([
      'istiod.istio-system.svc.cluster.local',
      'ratings.default.svc.cluster.local',
      'reviews.default.svc.cluster.local',
    ]);
  });

  it('"*/host" imports one host from any namespace; "~/*" imports nothing', () => {
    const snap = buildSnapshot({ services, pods: [client], configs: [sidecar('s', 'default', ['*/db.other.svc.cluster.local', '~/*'])] });
    expect(hosts(buildProxyView(snap, snap.proxies[0]!, O))).toEqual(['db.other.svc.cluster.local']);
  });

  it('a short egress dnsName resolves relative to the Sidecar namespace (ResolveShortnameToFQDN)', () => {
    const snap = buildSnapshot({ services, pods: [client], configs: [sidecar('s', 'default', ['./ratings'])] });
    expect(hosts(buildProxyView(snap, snap.proxies[0]!, O))).toEqual(['ratings.default.svc.cluster.local']);
  });

  it('a workloadSelector Sidecar beats the namespace default, which beats the root-namespace default', () => {
    const snap = buildSnapshot({
      services,
      pods: [client, pod('other-1', 'default', '10.0.0.9', { labels: { app: 'x' } }), pod('o-1', 'other', '10.0.1.1')],
      configs: [
        sidecar('root', 'istio-system', ['./*']),
        sidecar('ns-default', 'default', ['istio-system/*']),
        sidecar('for-client', 'default', ['other/*'], { workloadSelector: { labels: { app: 'client' } } }),
      ],
    });
    const view = (id: string) => buildProxyView(snap, snap.proxiesById.get(id)!, O);
    expect(view('client-1.default').sidecar?.meta.name).toBe('for-client');
    expect(hosts(view('client-1.default'))).toEqual(['db.other.svc.cluster.local']);
    expect(view('other-1.default').sidecar?.meta.name).toBe('ns-default');
    // the root default applies with "." meaning the proxy's own namespace
    expect(view('o-1.other').sidecar?.meta.name).toBe('root');
    expect(hosts(view('o-1.other'))).toEqual(['db.other.svc.cluster.local']);
  });

  it('outboundTrafficPolicy of the Sidecar overrides the mesh default', () => {
    const snap = buildSnapshot({
      services,
      pods: [client],
      configs: [istio('Sidecar', 's', 'default', { outboundTrafficPolicy: { mode: 'REGISTRY_ONLY' } })],
    });
    const v = buildProxyView(snap, snap.proxies[0]!, O);
    expect(v.outboundTrafficPolicy).toBe('REGISTRY_ONLY');
    expect(hosts(v)).toHaveLength(4); // no egress: default */* scope
    const plain = buildSnapshot({ services, pods: [client] });
    expect(buildProxyView(plain, plain.proxies[0]!, O).outboundTrafficPolicy).toBe('ALLOW_ANY');
  });

  it('a hostname in several namespaces keeps the proxy namespace one, then Kubernetes over ServiceEntry', () => {
    const se = { ...service('x', 'default'), hostname: 'api.example.com', registry: 'External' as const, namespace: 'other' };
    const k8s = { ...service('y', 'third'), hostname: 'api.example.com' };
    const own = { ...service('z', 'default'), hostname: 'dup.example.com' };
    const far = { ...service('w', 'other'), hostname: 'dup.example.com' };
    const snap = buildSnapshot({ services: [se, k8s, far, own], pods: [client] });
    const v = buildProxyView(snap, snap.proxies[0]!, O);
    expect(v.services.map((s) => `${s.hostname}@${s.namespace}`).sort()).toEqual(['api.example.com@third', 'dup.example.com@default']);
  });

  it('VirtualServices are imported when a host matches an imported host of the VS namespace or * (selectVirtualServices)', () => {
    const snap = buildSnapshot({
      services,
      pods: [client],
      configs: [
        sidecar('s', 'default', ['./*', '*/api.example.com']),
        vs('r', 'default', { hosts: ['reviews'] }),
        vs('d', 'other', { hosts: ['db'] }),
        // host matches default/* but the VS lives in "other": not imported
        vs('w', 'other', { hosts: ['*.default.svc.cluster.local'] }),
        // wildcard VS host vs exact imported host: bidirectional match through */api.example.com
        vs('ext', 'other', { hosts: ['*.example.com'] }),
      ],
    });
    expect(names(buildProxyView(snap, snap.proxies[0]!, O))).toEqual(['default/r', 'other/ext']);
  });
});

describe('VirtualService import order and binding (push_context.go:initVirtualServices, VirtualServicesForGateway)', () => {
  it('private of the proxy namespace, then exported to it, then public — each by creation time', () => {
    const snap = buildSnapshot({
      services: [service('reviews')],
      pods: [client],
      configs: [
        vs('public-old', 'other', { hosts: ['reviews.default.svc.cluster.local'] }, timeAt(1)),
        vs('exported', 'other', { hosts: ['reviews.default.svc.cluster.local'], exportTo: ['default'] }, timeAt(2)),
        vs('private-new', 'default', { hosts: ['reviews'], exportTo: ['.'] }, timeAt(5)),
        vs('private-old', 'default', { hosts: ['reviews'], exportTo: ['default'] }, timeAt(3)),
        vs('hidden', 'other', { hosts: ['reviews.default.svc.cluster.local'], exportTo: ['~'] }, timeAt(0)),
        vs('elsewhere', 'other', { hosts: ['reviews.default.svc.cluster.local'], exportTo: ['.'] }, timeAt(0)),
      ],
    });
    expect(names(buildProxyView(snap, snap.proxies[0]!, O))).toEqual([
      'default/private-old',
      'default/private-new',
      'other/exported',
      'other/public-old',
    ]);
  });

  it('binds to mesh when gateways is absent, not when only a gateway is listed; delegates (no hosts) never bind', () => {
    const snap = buildSnapshot({
      services: [service('reviews')],
      pods: [client],
      configs: [
        vs('no-gw', 'default', { hosts: ['reviews'] }),
        vs('gw-only', 'default', { hosts: ['reviews'], gateways: ['bookinfo-gateway'] }),
        vs('both', 'default', { hosts: ['reviews'], gateways: ['mesh', 'bookinfo-gateway'] }),
        vs('delegate', 'default', { http: [{ route: [{ destination: { host: 'reviews' } }] }] }),
      ],
    });
    expect(names(buildProxyView(snap, snap.proxies[0]!, O))).toEqual(['default/no-gw', 'default/both']);
    expect(virtualServicesForGateway(snap, 'default', 'default/bookinfo-gateway', O).map((v) => v.meta.name)).toEqual(['gw-only', 'both']);
  });

  it.each([
    ['mesh', 'mesh'],
    ['gw', 'ns1/gw'],
    ['./gw', 'ns1/gw'],
    ['istio-system/gw', 'istio-system/gw'],
    ['gw.istio-system.svc.cluster.local', 'istio-system/gw'],
  ])('resolveGatewayName(%s) in ns1 → %s (config.go:resolveGatewayName)', (gw, want) => {
    expect(resolveGatewayName(gw, 'ns1')).toBe(want);
  });

  it('resolves short names of hosts, destinations and mirrors relative to the VS namespace; dotted, * and IPs stay', () => {
    const snap = buildSnapshot({
      services: [service('reviews', 'bookinfo')],
      pods: [pod('c', 'bookinfo', '10.0.0.7')],
      configs: [
        vs('r', 'bookinfo', {
          hosts: ['reviews', 'reviews.other', '*', '10.1.2.3'],
          http: [
            {
              match: [{ gateways: ['mesh', 'gw'] }],
              route: [{ destination: { host: 'reviews', subset: 'v1' } }, { destination: { host: 'a.b' } }],
              mirror: { host: 'ratings' },
              mirrors: [{ destination: { host: 'details' } }],
            },
          ],
          tcp: [{ route: [{ destination: { host: 'mongo' } }] }],
          tls: [{ match: [{ sniHosts: ['x.com'] }], route: [{ destination: { host: 'x' } }] }],
        }),
      ],
    });
    const got = buildProxyView(snap, snap.proxies[0]!, O).virtualServices[0]!.spec;
    const fq = (n: string) => `${n}.bookinfo.svc.cluster.local`;
    expect(got.hosts).toEqual([fq('reviews'), 'reviews.other', '*', '10.1.2.3']);
    expect(got.http?.[0]?.route?.map((r) => r.destination.host)).toEqual([fq('reviews'), 'a.b']);
    expect(got.http?.[0]?.route?.[0]?.destination.subset).toBe('v1');
    expect(got.http?.[0]?.mirror?.host).toBe(fq('ratings'));
    expect(got.http?.[0]?.mirrors?.[0]?.destination.host).toBe(fq('details'));
    expect(got.http?.[0]?.match?.[0]?.gateways).toEqual(['mesh', 'bookinfo/gw']);
    expect(got.tcp?.[0]?.route?.[0]?.destination.host).toBe(fq('mongo'));
    expect(got.tls?.[0]?.route?.[0]?.destination.host).toBe(fq('x'));
    // the snapshot object is not mutated
    expect(snap.virtualServices[0]!.spec.hosts?.[0]).toBe('reviews');
  });
});

describe('DestinationRule lookup (push_context.go:destinationRule, mergeDestinationRule)', () => {
  const reviews = 'reviews.bookinfo.svc.cluster.local';
  const dr = (name: string, ns: string, spec: object, created?: string) =>
    istio('DestinationRule', name, ns, { host: reviews, ...spec }, created ? { created } : {});
  const mk = (configs: ReturnType<typeof dr>[], proxyNs = 'client-ns') => {
    const snap = buildSnapshot({
      services: [service('reviews', 'bookinfo')],
      pods: [pod('c', proxyNs, '10.0.0.7', { labels: { app: 'c' } })],
      configs,
    });
    return buildProxyView(snap, snap.proxies[0]!, O);
  };

  it('the proxy namespace rule wins over the service namespace rule, which wins over the root namespace rule', () => {
    const all = [dr('root', 'istio-system', {}), dr('svc', 'bookinfo', {}), dr('mine', 'client-ns', {})];
    expect(
      mk(all)
        .destinationRule(reviews)
        ?.from.map((c) => c.meta.name),
    ).toEqual(['mine']);
    expect(
      mk(all.slice(0, 2))
        .destinationRule(reviews)
        ?.from.map((c) => c.meta.name),
    ).toEqual(['svc']);
    expect(
      mk(all.slice(0, 1))
        .destinationRule(reviews)
        ?.from.map((c) => c.meta.name),
    ).toEqual(['root']);
  });

  it('a service-namespace rule exported only to "." is invisible to other namespaces, so the root rule applies', () => {
    const v = mk([dr('root', 'istio-system', {}), dr('svc', 'bookinfo', { exportTo: ['.'] })]);
    expect(v.destinationRule(reviews)?.from[0]?.meta.name).toBe('root');
  });

  it('a short host resolves relative to the rule namespace (setDestinationRules)', () => {
    const v = mk([istio('DestinationRule', 'short', 'bookinfo', { host: 'reviews' })]);
    expect(v.destinationRule(reviews)?.spec.host).toBe(reviews);
    const other = mk([istio('DestinationRule', 'short', 'client-ns', { host: 'reviews' })]);
    expect(other.destinationRule(reviews)).toBeUndefined();
  });

  it('the most specific host wins: exact over *.bookinfo.svc.cluster.local over *.svc.cluster.local', () => {
    const v = mk([
      istio('DestinationRule', 'wide', 'client-ns', { host: '*.svc.cluster.local' }),
      istio('DestinationRule', 'narrow', 'client-ns', { host: '*.bookinfo.svc.cluster.local' }),
    ]);
    expect(v.destinationRule(reviews)?.from[0]?.meta.name).toBe('narrow');
  });

  it('same-host rules in one namespace merge: subsets added by name, the oldest top-level policy wins', () => {
    const v = mk([
      dr(
        'b',
        'bookinfo',
        { subsets: [{ name: 'v2' }, { name: 'v1', labels: { dup: 'x' } }], trafficPolicy: { loadBalancer: { simple: 'RANDOM' } } },
        timeAt(2),
      ),
      dr('a', 'bookinfo', { subsets: [{ name: 'v1', labels: { version: 'v1' } }] }, timeAt(1)),
      dr('c', 'bookinfo', { trafficPolicy: { loadBalancer: { simple: 'ROUND_ROBIN' } } }, timeAt(3)),
    ]);
    const got = v.destinationRule(reviews)!;
    expect(got.from.map((c) => c.meta.name)).toEqual(['a', 'b', 'c']);
    expect(got.spec.subsets?.map((s) => s.name)).toEqual(['v1', 'v2']);
    expect(got.spec.subsets?.[0]?.labels).toEqual({ version: 'v1' });
    expect(got.spec.trafficPolicy?.loadBalancer?.simple).toBe('RANDOM');
  });

  it('a workloadSelector rule applies only to selected proxies of its namespace', () => {
    const sel = dr('sel', 'client-ns', { workloadSelector: { matchLabels: { app: 'c' } } });
    expect(mk([dr('plain', 'client-ns', {}), sel]).destinationRule(reviews)?.from[0]?.meta.name).toBe('sel');
    const elsewhere = dr('sel', 'bookinfo', { workloadSelector: { matchLabels: { app: 'c' } } });
    expect(mk([elsewhere]).destinationRule(reviews)).toBeUndefined();
    // a selector rule of its namespace that does not select it: the selector-less rule, as if the other were not there
    const other = dr('other', 'client-ns', { workloadSelector: { matchLabels: { app: 'not-c' } } });
    expect(
      mk([other, dr('plain', 'client-ns', {})])
        .destinationRule(reviews)
        ?.from.map((c) => c.meta.name),
    ).toEqual(['plain']);
    expect(mk([other]).destinationRule(reviews)).toBeUndefined();
  });
});

describe('service targets (ServiceTarget: services selecting the pod, resolved targetPort)', () => {
  it('resolves numeric, named and absent targetPorts; dedupes (targetPort, protocol) per service; ignores other namespaces', () => {
    const p = pod('reviews-v1-abc', 'default', '10.0.0.3', { labels: { app: 'reviews', version: 'v1' }, namedPorts: { web: 9081 } });
    const snap = buildSnapshot({
      services: [
        service('reviews', 'default', {
          ports: [
            port(9080, 'http', 'HTTP', 'web'),
            port(8000, 'tcp-x', 'TCP', 8001),
            port(7000, 'grpc'),
            port(9081, 'http-dup', 'HTTP', 9081),
          ],
        }),
        service('reviews', 'other'),
        service('ratings', 'default'),
      ],
      pods: [p],
    });
    const v = buildProxyView(snap, proxyOf(p), O);
    expect(v.serviceTargets.map((t) => `${t.service.hostname}:${t.port.port}->${t.targetPort}`)).toEqual([
      'reviews.default.svc.cluster.local:9080->9081',
      'reviews.default.svc.cluster.local:8000->8001',
      'reviews.default.svc.cluster.local:7000->7000',
    ]);
  });
});

describe('gateways (DefaultSidecarScopeForGateway)', () => {
  it('a router sees every service exported to its namespace and ignores Sidecars', () => {
    const gw = pod('ingress-1', 'istio-system', '10.0.9.9', { labels: { istio: 'ingressgateway' }, proxy: 'router' });
    const snap = buildSnapshot({
      services: [service('a', 'default'), service('b', 'default', { exportTo: ['.'] })],
      pods: [gw],
      configs: [
        istio('Sidecar', 'root', 'istio-system', { egress: [{ hosts: ['~/*'] }] }),
        istio('Gateway', 'gw', 'istio-system', { selector: { istio: 'ingressgateway' }, servers: [] }),
        vs('bound', 'default', { hosts: ['a.example.com'], gateways: ['istio-system/gw'] }),
        vs('mesh-only', 'default', { hosts: ['a'] }),
      ],
    });
    const v = buildProxyView(snap, snap.proxies[0]!, O);
    expect(v.sidecar).toBeUndefined();
    expect(hosts(v)).toEqual(['a.default.svc.cluster.local']);
    expect(names(v)).toEqual(['default/bound']);
  });
});
