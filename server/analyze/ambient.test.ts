// The ambient analyzers on Istio's Bookinfo (../shared/fixtures) in namespace `bookinfo` enrolled in ambient, with
// the waypoint `bookinfo/waypoint` and route-reviews-90-10 as a GAMMA HTTPRoute (translate/xds/waypoint/testing).
// Expectations are istiod's rules and texts, cited per case: status.go (ReportWaypoint*), waypoints.go
// (fetchWaypointForTarget / fetchWaypointForService / fetchWaypointForWorkload), policies.go
// (WaypointPolicyStatusCollection, AuthzDerivedPolicies), model/service.go (flattenConditions, GetConditions),
// authorization.go (convertAuthorizationPolicy: httpRuleFmt and its boilerplates), kube/gateway/conditions.go
// (WaypointErrorMsgMissingLabel), analyzers/conditions/conditions.go (which conditions IST0171 reports) and
// analyzers/util/in_mesh.go (NamespaceInAmbientMode).
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import type { RawInput } from '../model/inputs';
import { loadPaths, parseText } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import { ambientBookinfoInputs, labelService, ROUTE_90_10, WAYPOINT_YAML } from '../translate/xds/waypoint/testing';
import { analyze, ANALYZERS, type Finding } from './index';

const AMBIENT_CODES = /^MSC02/;
const withYaml = (inputs: readonly RawInput[], text: string): RawInput[] => [
  ...inputs,
  ...parseText(text, 'extra.yaml', 'bookinfo').inputs,
];
const run = (inputs: readonly RawInput[], ambient = true): Finding[] =>
  analyze(buildSnapshot(inputs, { version: 1, ...(ambient ? { ambient: true } : {}) })).findings;
const ambientOnes = (fs: readonly Finding[]) =>
  fs.filter((f) => AMBIENT_CODES.test(f.code) || (f.code === 'IST0171' && !/^(Gateway|HTTPRoute|GRPCRoute) /.test(f.object)));
const brief = (fs: readonly Finding[]) => ambientOnes(fs).map((f) => [f.code, f.object, f.path]);

const REVIEWS_DR = bookinfo('networking/destination-rule-reviews.yaml');
const REVIEWS_VS = bookinfo('networking/virtual-service-reviews-90-10.yaml');

describe('the ambient profile gates the ambient analyzers', () => {
  it('without --ambient the same inputs give no ambient finding and the ambient analyzers do not run', () => {
    const inputs = ambientBookinfoInputs({ useWaypoint: false, extra: [REVIEWS_VS] });
    const off = analyze(buildSnapshot(inputs, { version: 1 }));
    expect(ambientOnes(off.findings)).toEqual([]);
    expect(off.analyzers).toEqual(ANALYZERS.filter((a) => !a.meta.ambientOnly).map((a) => a.meta.name));
    const on = analyze(buildSnapshot(inputs, { version: 1, ambient: true }));
    expect(on.analyzers).toEqual(ANALYZERS.map((a) => a.meta.name));
    // Everything the other analyzers say is unchanged by the profile (the load errors differ: istiod's built-in
    // GatewayClass istio-waypoint exists only under the ambient profile).
    const rest = (ambient: boolean) =>
      analyze(buildSnapshot(inputs, { version: 1, ...(ambient ? { ambient: true } : {}) }), { skipLoadErrors: true }).findings;
    expect(rest(true).filter((f) => !ambientOnes([f]).length)).toEqual(rest(false));
    expect(rest(false).length).toBeGreaterThan(0);
  });
});

describe('MSC0203 NoWaypointForL7Config: routes and traffic policies of an ambient service without a waypoint', () => {
  it('the acceptance: route-reviews-90-10 as a GAMMA HTTPRoute, reviews without use-waypoint → the HTTPRoute is flagged at its parentRef', () => {
    const fs = ambientOnes(run(ambientBookinfoInputs({ useWaypoint: false })));
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({ code: 'MSC0203', level: 'Warning', object: 'HTTPRoute bookinfo/reviews', path: 'spec.parentRefs[0]' });
    // conditions.go WaypointErrorMsgMissingLabel, istiod's ResolvedWaypoints message for this parent.
    expect(fs[0]!.message).toContain(
      'istio.io/use-waypoint label missing from parent and parent namespace; in ambient mode, route will not be respected',
    );
    expect(fs[0]!.message).toContain('Service bookinfo/reviews');
    expect(fs[0]!.origin?.file).toBe(ROUTE_90_10());
  });

  it('with istio.io/use-waypoint on reviews (waypoint bound) nothing is flagged', () => {
    expect(brief(run(ambientBookinfoInputs({ extra: [REVIEWS_VS, REVIEWS_DR] })))).toEqual([]);
  });

  it('a mesh VirtualService and a DestinationRule for unbound reviews are flagged at spec.hosts[i] / spec.host', () => {
    const fs = run(ambientBookinfoInputs({ useWaypoint: false, extra: [REVIEWS_VS, REVIEWS_DR] }));
    expect(brief(fs)).toEqual([
      ['MSC0203', 'DestinationRule bookinfo/reviews', 'spec.host'],
      ['MSC0203', 'HTTPRoute bookinfo/reviews', 'spec.parentRefs[0]'],
      ['MSC0203', 'VirtualService bookinfo/reviews', 'spec.hosts[0]'],
    ]);
    // A VirtualService's reason is the index's (no label on the Service or its namespace).
    expect(fs.find((f) => f.object === 'VirtualService bookinfo/reviews')!.message).toContain(
      'no istio.io/use-waypoint label on Service bookinfo/reviews or on namespace bookinfo',
    );
  });

  it('a VirtualService bound to a gateway only, or a service without ambient pods, is not flagged', () => {
    const gatewayOnly = withYaml(
      ambientBookinfoInputs({ useWaypoint: false }),
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: edge}\nspec:\n  hosts: [reviews]\n  gateways: [bookinfo-gateway]\n  http:\n  - route:\n    - destination: {host: reviews}\n',
    );
    expect(brief(run(gatewayOnly)).filter((f) => f[1] === 'VirtualService bookinfo/edge')).toEqual([]);
    // Not enrolled (no istio-cni annotation): ztunnel does not carry the traffic, nothing to say about waypoints.
    const plain = loadPaths([bookinfo('platform/bookinfo.yaml'), bookinfo('platform/bookinfo-versions.yaml'), ROUTE_90_10()], {
      namespace: 'bookinfo',
    }).inputs;
    expect(brief(run(plain))).toEqual([]);
  });
});

describe('use-waypoint naming a waypoint that does not bind', () => {
  it('a missing waypoint on a Service: IST0171 istio.io/WaypointBound WaypointIsNotReady (status.go ReportWaypointIsNotReady)', () => {
    const inputs = labelService(ambientBookinfoInputs(), 'bookinfo', 'reviews', { 'istio.io/use-waypoint': 'nope' });
    const fs = run(inputs);
    const c = fs.find((f) => f.code === 'IST0171' && f.object === 'Service bookinfo/reviews')!;
    expect(c).toMatchObject({ level: 'Warning', path: 'metadata.labels["istio.io/use-waypoint"]' });
    expect(c.message).toBe(
      'A condition with a negative status is present: type=istio.io/WaypointBound, reason=WaypointIsNotReady, message=waypoint "bookinfo/nope" is not ready.',
    );
    // The route on it has no waypoint either, and says why (the index's reason, not the missing-label text).
    const r = fs.find((f) => f.code === 'MSC0203')!;
    expect(r.message).toContain('waypoint "bookinfo/nope" is not ready (no Gateway bookinfo/nope exists)');
  });

  it('a waypoint Gateway without a status address is not ready either', () => {
    const inputs = withYaml(
      labelService(ambientBookinfoInputs(), 'bookinfo', 'reviews', { 'istio.io/use-waypoint': 'pending' }),
      'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: pending}\nspec:\n  gatewayClassName: istio-waypoint\n  listeners: [{name: mesh, port: 15008, protocol: HBONE}]\n',
    );
    expect(run(inputs).find((f) => f.object === 'Service bookinfo/reviews')?.message).toContain(
      'reason=WaypointIsNotReady, message=waypoint "bookinfo/pending" is not ready',
    );
  });

  it('a workload-only waypoint named by a Service: UnsupportedTrafficType (ReportWaypointUnsupportedTrafficType)', () => {
    const inputs = withYaml(
      labelService(ambientBookinfoInputs(), 'bookinfo', 'reviews', { 'istio.io/use-waypoint': 'wl' }),
      'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: wl, labels: {istio.io/waypoint-for: workload}}\nspec:\n  gatewayClassName: istio-waypoint\n  listeners: [{name: mesh, port: 15008, protocol: HBONE}]\nstatus:\n  addresses: [{type: Hostname, value: wl.bookinfo.svc.cluster.local}]\n',
    );
    expect(run(inputs).find((f) => f.object === 'Service bookinfo/reviews')?.message).toBe(
      'A condition with a negative status is present: type=istio.io/WaypointBound, reason=UnsupportedTrafficType, message=attempting to bind to traffic type "service" which the waypoint "bookinfo/wl" does not support.',
    );
  });

  it("a namespace's label naming a missing waypoint: MSC0202 on the Namespace, IST0171 on each of its Services (status.conditions)", () => {
    const inputs = ambientBookinfoInputs({ useWaypoint: false }).map((i) => {
      const o = i.object as { kind?: string; metadata?: { name?: string; labels?: Record<string, string> } };
      if (o.kind !== 'Namespace') return i;
      return { ...i, object: { ...o, metadata: { ...o.metadata, labels: { ...o.metadata?.labels, 'istio.io/use-waypoint': 'gone' } } } };
    });
    const fs = run(inputs);
    const ns = fs.filter((f) => f.code === 'MSC0202');
    expect(ns.map((f) => [f.object, f.path])).toEqual([['Namespace bookinfo', 'metadata.labels["istio.io/use-waypoint"]']]);
    expect(ns[0]!.message).toContain('waypoint "bookinfo/gone" is not ready');
    const services = fs.filter((f) => f.code === 'IST0171' && f.object.startsWith('Service '));
    // Every Bookinfo Service (bookinfo.yaml, bookinfo-versions.yaml) but the waypoint's own (fetchWaypointForService:
    // a waypoint's Service has none).
    expect(services.map((f) => f.object).sort()).toEqual(
      [
        'details',
        'details-v1',
        'productpage',
        'productpage-v1',
        'ratings',
        'ratings-v1',
        'reviews',
        'reviews-v1',
        'reviews-v2',
        'reviews-v3',
      ]
        .map((n) => `Service bookinfo/${n}`)
        .sort(),
    );
    for (const f of services) expect(f.path).toBe('status.conditions');
  });

  it("a pod's own label naming a service-only waypoint: MSC0202 on its Deployment's template (fetchWaypointForWorkload)", () => {
    const inputs = ambientBookinfoInputs().map((i) => {
      const o = i.object as Record<string, any>;
      if (o.kind !== 'Deployment' || o.metadata?.name !== 'ratings-v1') return i;
      const tpl = o.spec.template;
      const labels = { ...tpl.metadata.labels, 'istio.io/use-waypoint': 'waypoint' };
      return { ...i, object: { ...o, spec: { ...o.spec, template: { ...tpl, metadata: { ...tpl.metadata, labels } } } } };
    });
    const fs = run(inputs).filter((f) => f.code === 'MSC0202');
    expect(fs.map((f) => [f.object, f.path])).toEqual([
      ['Deployment bookinfo/ratings-v1', 'spec.template.metadata.labels["istio.io/use-waypoint"]'],
    ]);
    expect(fs[0]!.message).toContain(
      'attempting to bind to traffic type "workload" which the waypoint "bookinfo/waypoint" does not support',
    );
  });
});

describe('MSC0201 AmbientNamespaceNotEnrolled (§1: labelled ambient, no istio-cni annotation)', () => {
  it('Bookinfo in a namespace labelled istio.io/dataplane-mode=ambient whose pods carry no redirection annotation', () => {
    const { inputs } = loadPaths([bookinfo('platform/bookinfo.yaml'), bookinfo('platform/bookinfo-versions.yaml'), WAYPOINT_YAML], {
      namespace: 'bookinfo',
    });
    const fs = run(inputs).filter((f) => f.code === 'MSC0201');
    expect(fs.map((f) => [f.object, f.path])).toEqual([['Namespace bookinfo', 'metadata.labels["istio.io/dataplane-mode"]']]);
    // Bookinfo's six Deployments; the waypoint's pod runs its own proxy and is not counted.
    expect(fs[0]!.message).toContain('none of its 6 pod(s) is enrolled');
    expect(fs[0]!.message).toContain('ambient.istio.io/redirection: enabled');
    expect(fs[0]!.message).not.toContain('waypoint-');
  });

  it('enrolled pods (the annotation istio-cni writes) give no finding; a sidecar injection label makes the namespace not ambient', () => {
    expect(run(ambientBookinfoInputs()).filter((f) => f.code === 'MSC0201')).toEqual([]);
    const { inputs } = loadPaths([bookinfo('platform/bookinfo.yaml'), WAYPOINT_YAML], { namespace: 'bookinfo' });
    const injected = inputs.map((i) => {
      const o = i.object as { kind?: string; metadata?: Record<string, any> };
      return o.kind === 'Namespace'
        ? { ...i, object: { ...o, metadata: { ...o.metadata, labels: { ...o.metadata?.labels, 'istio-injection': 'enabled' } } } }
        : i;
    });
    expect(run(injected).filter((f) => f.code === 'MSC0201')).toEqual([]);
  });
});

const policy = (body: string) => `apiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\n${body}`;

describe('AuthorizationPolicies: where ztunnel and waypoints enforce them', () => {
  it("MSC0204: HTTP attributes in a selector policy on ambient pods, with istiod's ZtunnelAccepted message (authorization.go httpRuleFmt)", () => {
    const inputs = withYaml(
      ambientBookinfoInputs(),
      policy(
        'metadata: {name: reviews-get}\nspec:\n  selector: {matchLabels: {app: reviews}}\n  rules:\n  - from: [{source: {namespaces: [bookinfo]}}]\n    to: [{operation: {methods: [GET], ports: ["9080"]}}]\n',
      ),
    );
    const fs = run(inputs).filter((f) => f.code === 'MSC0204');
    expect(fs.map((f) => [f.object, f.path])).toEqual([
      ['AuthorizationPolicy bookinfo/reviews-get', 'spec.rules[0].to[0].operation.methods'],
    ]);
    expect(fs[0]!.message).toContain('3 ambient pod(s)');
    expect(fs[0]!.message).toContain(
      'ztunnel does not support HTTP attributes (found: methods). In ambient mode you must use a waypoint proxy to enforce HTTP rules. Within an ALLOW policy, rules matching HTTP attributes are omitted. This will be more restrictive than requested.',
    );
  });

  it('CUSTOM on ambient pods: IST0171 ZtunnelAccepted UnsupportedValue (pol nil → Bound false)', () => {
    const inputs = withYaml(
      ambientBookinfoInputs(),
      policy(
        'metadata: {name: ext}\nspec:\n  selector: {matchLabels: {app: ratings}}\n  action: CUSTOM\n  provider: {name: ext-authz}\n  rules: [{}]\n',
      ),
    );
    const f = run(inputs).find((x) => x.object === 'AuthorizationPolicy bookinfo/ext' && x.code === 'IST0171')!;
    expect(f.path).toBe('spec.action');
    expect(f.message).toBe(
      'A condition with a negative status is present: type=ZtunnelAccepted, reason=UnsupportedValue, message=ztunnel does not support the CUSTOM action.',
    );
  });

  const TARGETED = policy(
    'metadata: {name: reviews-l7}\nspec:\n  targetRefs:\n  - {kind: Service, group: "", name: reviews}\n  action: DENY\n  rules:\n  - to: [{operation: {paths: ["/admin"]}}]\n',
  );

  it('a targetRefs policy on a Service without a waypoint: IST0171 WaypointAccepted AncestorNotBound (policies.go)', () => {
    const fs = run(withYaml(ambientBookinfoInputs({ useWaypoint: false }), TARGETED));
    const f = fs.find((x) => x.object === 'AuthorizationPolicy bookinfo/reviews-l7')!;
    expect(f).toMatchObject({ code: 'IST0171', path: 'spec.targetRefs[0]' });
    expect(f.message).toBe(
      'A condition with a negative status is present: type=WaypointAccepted, reason=AncestorNotBound, message=Service bookinfo/reviews is not bound to a waypoint.',
    );
  });

  it('one bound and one unbound target: PartiallyInvalid with the unbound ancestors (model.flattenConditions)', () => {
    const two = TARGETED.replace(
      '  - {kind: Service, group: "", name: reviews}\n',
      '  - {kind: Service, group: "", name: reviews}\n  - {kind: Service, group: "", name: ratings}\n',
    );
    const f = run(withYaml(ambientBookinfoInputs(), two)).find((x) => x.object === 'AuthorizationPolicy bookinfo/reviews-l7')!;
    expect(f).toMatchObject({ code: 'IST0171', path: 'spec.targetRefs[1]' });
    expect(f.message).toContain(
      'type=WaypointAccepted, reason=PartiallyInvalid, message=Invalid targetRefs: Service.core:bookinfo/ratings.',
    );
  });

  it('bound to the waypoint and no sidecar in the mesh: nothing to say', () => {
    expect(brief(run(withYaml(ambientBookinfoInputs(), TARGETED)))).toEqual([]);
  });

  it('MSC0205: bound to the waypoint while sidecar pods exist — they bypass destination waypoints (sidecar_interop.go)', () => {
    const legacy =
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: legacy, labels: {istio-injection: enabled}}\n---\n' +
      'apiVersion: v1\nkind: Pod\nmetadata: {name: client, namespace: legacy, labels: {app: client}}\nspec:\n  containers: [{name: client, image: curl}]\nstatus: {podIP: 10.244.7.7}\n';
    const fs = run(withYaml(withYaml(ambientBookinfoInputs(), TARGETED), legacy)).filter((f) => f.code === 'MSC0205');
    expect(fs.map((f) => [f.object, f.path])).toEqual([['AuthorizationPolicy bookinfo/reviews-l7', 'spec.targetRefs[0]']]);
    expect(fs[0]!.message).toContain('enforced only by waypoint bookinfo/waypoint');
    expect(fs[0]!.message).toContain('1 sidecar pod(s) that can call Service bookinfo/reviews (e.g. legacy/client)');
  });
});
