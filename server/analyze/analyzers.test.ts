// Analyzer grid in the style of Istio's analyzers_test.go: {name, inputFiles, expected: [[code, object, path]]}.
// Every expectation is derived from the Istio rule cited beside it (pkg/config/analysis/analyzers/**,
// pkg/config/validation/validation.go); the YAML inputs live in ./testdata.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadMesh } from '../cli/load';
import { bookinfo } from '../testing/paths';
import { analyze, hasErrors, MESSAGES } from './index';

type Expected = [code: string, object: string, path: string];
interface Case {
  name: string;
  inputFiles: string[];
  expected: Expected[];
  /** Only these analyzers (meta.name); all when absent. */
  only?: string[];
}

const td = (f: string) => join(import.meta.dirname, 'testdata', f);

const cases: Case[] = [
  {
    // destinationhosts.go analyzeVirtualService: host lookup via GetDestinationHost (short names → NS.svc.cluster.local,
    // `*`-scoped wildcard ServiceEntry *.example.com covers api.example.com); checkServiceEntryPorts: explicit port not
    // on the service → "host:port"; no port and >1 service ports → IST0112; a short name resolves in the VS namespace
    // (other/crossns → reviews.other.svc.cluster.local, which does not exist).
    name: 'virtualservice.DestinationHostAnalyzer',
    inputFiles: ['vs-destinations.yaml'],
    only: ['virtualservice.DestinationHostAnalyzer'],
    expected: [
      ['IST0101', 'VirtualService default/routes', 'spec.http[0].route[1].destination.host'],
      ['IST0101', 'VirtualService default/routes', 'spec.http[1].mirror.host'],
      ['IST0101', 'VirtualService default/routes', 'spec.http[1].route[0].destination.port.number'],
      ['IST0101', 'VirtualService other/crossns', 'spec.http[0].route[0].destination.host'],
      ['IST0112', 'VirtualService default/routes', 'spec.http[2].route[0].destination.host'],
    ],
  },
  {
    // destinationrules.go: host+subset compared as namespace/name (GetResourceNameFromHost); reviews defines v1,v2 only,
    // so route subset v3 and mirror subset v9 are missing (mirror → "mirror+subset in destinationrule").
    name: 'virtualservice.DestinationRuleAnalyzer',
    inputFiles: ['dr-subsets.yaml'],
    only: ['virtualservice.DestinationRuleAnalyzer'],
    expected: [
      ['IST0101', 'VirtualService default/reviews', 'spec.http[1].mirror.subset'],
      ['IST0101', 'VirtualService default/reviews', 'spec.http[1].route[0].destination.subset'],
    ],
  },
  {
    // gateways.go: `nosuch` does not exist (IST0101) and so serves no host (IST0132); default/gw serves only
    // `./*.bookinfo.com` = default/*.bookinfo.com: shop.example.org does not match, and a VS in namespace `team`
    // does not see a `default/`-scoped host (host.NamesForNamespace). `ok` (gw + mesh, www.bookinfo.com) is clean.
    name: 'virtualservice.GatewayAnalyzer',
    inputFiles: ['vs-gateways.yaml'],
    only: ['virtualservice.GatewayAnalyzer'],
    expected: [
      ['IST0101', 'VirtualService default/missing', 'spec.gateways[0]'],
      ['IST0132', 'VirtualService default/missing', 'spec.gateways[0]'],
      ['IST0132', 'VirtualService default/wronghost', 'spec.gateways[0]'],
      ['IST0132', 'VirtualService team/otherns', 'spec.gateways[0]'],
    ],
  },
  {
    // conflictingmeshgatewayhosts.go: team1/ratings-a (short name → ratings.team1.svc.cluster.local) and team2/ratings-b
    // share */ratings.team1.svc.cluster.local; team3/ratings-local (exportTo .) collects the *-scoped ones for its
    // team3/ key; ratings-gw-only is not bound to mesh; private-x / private-x2 are scoped to different namespaces.
    name: 'virtualservice.ConflictingMeshGatewayHostsAnalyzer',
    inputFiles: ['conflicting-mesh-hosts.yaml'],
    only: ['virtualservice.ConflictingMeshGatewayHostsAnalyzer'],
    expected: [
      ['IST0109', 'VirtualService team1/ratings-a', 'metadata.name'],
      ['IST0109', 'VirtualService team2/ratings-b', 'metadata.name'],
      ['IST0109', 'VirtualService team3/ratings-local', 'metadata.name'],
    ],
  },
  {
    // validation.go analyzeUnreachableHTTPRules/TCP: http[1].match[0] duplicates http[0].match[0] (name ignored) → IST0131;
    // http[2]'s only match duplicates http[0].match[1] → IST0131 + IST0130 "all matches used by prior rules";
    // http[4] prefix /api/v1 is covered by http[3] prefix /api (coveredValidation) → IST0131; http[5] has no match, so
    // http[6] → "route without matches defined before" and http[7] (no match) → "only the last rule can have no matches";
    // tcp[0] has no match, so tcp[1] → "route without matches defined before".
    name: 'schema.ValidationAnalyzer unreachable rules',
    inputFiles: ['unreachable-rules.yaml'],
    only: ['schema.ValidationAnalyzer.VirtualService'],
    expected: [
      ['IST0130', 'VirtualService default/rules', 'spec.http[2]'],
      ['IST0130', 'VirtualService default/rules', 'spec.http[6]'],
      ['IST0130', 'VirtualService default/rules', 'spec.http[7]'],
      ['IST0130', 'VirtualService default/rules', 'spec.tcp[1]'],
      ['IST0131', 'VirtualService default/rules', 'spec.http[1].match[0]'],
      ['IST0131', 'VirtualService default/rules', 'spec.http[2].match[0]'],
      ['IST0131', 'VirtualService default/rules', 'spec.http[4].match[0]'],
    ],
  },
  {
    // subset.go: the only pod is reviews v1, so subset v2 selects nothing (IST0173, Error in Istio's catalogue);
    // ghost.default.svc.cluster.local resolves to no service → IST0174 and its subsets are not checked.
    name: 'destinationrule.SubsetSelectPodAnalyzer',
    inputFiles: ['dr-subsets.yaml'],
    only: ['destinationrule.SubsetSelectPodAnalyzer'],
    expected: [
      ['IST0173', 'DestinationRule default/reviews', 'spec.subsets[1].name'],
      ['IST0174', 'DestinationRule default/ghost', 'spec.host'],
    ],
  },
  {
    // ca-certificates.go: tls SIMPLE without caCertificates → IST0128; port 9080 MUTUAL has caCertificates (fine);
    // port 9443 SIMPLE without → IST0129.
    name: 'destinationrule.CaCertificateAnalyzer',
    inputFiles: ['dr-subsets.yaml'],
    only: ['destinationrule.CaCertificateAnalyzer'],
    expected: [
      ['IST0128', 'DestinationRule default/tls', 'spec.trafficPolicy.tls'],
      ['IST0129', 'DestinationRule default/tls', 'spec.trafficPolicy.portLevelSettings[1].tls'],
    ],
  },
  {
    // gateway.go: the ingress Service exposes ports 80, 443 and targetPorts 8080, 8443 → server 8080 and 443 are fine,
    // 9999 is not (IST0162); `noselect`'s selector matches no pod → IST0101 "selector" and its ports are not checked.
    name: 'gateway.IngressGatewayPortAnalyzer',
    inputFiles: ['gateway-ports.yaml'],
    only: ['gateway.IngressGatewayPortAnalyzer'],
    expected: [
      ['IST0101', 'Gateway default/noselect', 'spec.selector'],
      ['IST0162', 'Gateway default/ports', 'spec.servers[2].port.number'],
    ],
  },
  {
    // schema/validation.go: an object failing validation → IST0106 SchemaValidationError at the located field
    // (validation.go validateHTTPRouteDestinations: weight must be 0..100). The invalid object is still analyzed,
    // as istioctl analyze does on files: its destination `svc` does not exist (destinationhosts.go → IST0101).
    name: 'schema.ValidationAnalyzer load errors',
    inputFiles: ['schema-errors.yaml'],
    expected: [
      ['IST0101', 'VirtualService default/bad', 'spec.http[0].route[0].destination.host'],
      ['IST0106', 'VirtualService default/bad', 'spec.http[0].route[0].weight'],
    ],
  },
];

async function run(c: Case) {
  const { snapshot } = await loadMesh(c.inputFiles.map(td));
  return analyze(snapshot, c.only ? { only: c.only } : {}).findings;
}

describe('analyzer grid (Istio analyzers_test.go style)', () => {
  for (const c of cases)
    it(c.name, async () => {
      const got = (await run(c)).map((f) => [f.code, f.object, f.path ?? '']);
      expect(got).toEqual([...c.expected].sort((a, b) => (a.join('\0') < b.join('\0') ? -1 : 1)).sort((a, b) => level(a[0]) - level(b[0])));
    });
});

const level = (code: string) => {
  const t = Object.values(MESSAGES).find((m) => m.code === code);
  return t ? { Error: 0, Warning: 1, Info: 2 }[t.level] : 9;
};

describe('messages: Istio wording (msg/messages.yaml templates)', () => {
  it('IST0101 host, IST0112 ports, IST0130/IST0131 rule names', async () => {
    const dest = await run(cases[0]!);
    expect(dest.find((f) => f.path === 'spec.http[0].route[1].destination.host')?.message).toBe('Referenced host not found: "nosuch"');
    expect(dest.find((f) => f.code === 'IST0112')?.message).toBe(
      'This VirtualService routes to a service "multi" that exposes multiple ports [80 8080]. Specifying a port in the destination is required to disambiguate.',
    );
    const rules = await run(cases[4]!);
    const msg = (p: string, code: string) => rules.find((f) => f.path === p && f.code === code)?.message;
    expect(msg('spec.http[1].match[0]', 'IST0131')).toBe(
      'VirtualService rule #1 match "again" is not used (duplicate/overlapping match in rule "first").',
    );
    expect(msg('spec.http[6]', 'IST0130')).toBe('VirtualService rule "late" not used (route without matches defined before).');
    expect(msg('spec.http[4].match[0]', 'IST0131')).toBe(
      'VirtualService rule #4 match #0 of prefix /api/v1 is not used (duplicate/overlapping match in rule #0 of prefix /api on #3).',
    );
  });

  it('IST0109 lists the conflicting VirtualServices sorted and the scoped host', async () => {
    const f = (await run(cases[3]!)).find((x) => x.object === 'VirtualService team1/ratings-a');
    expect(f?.message).toBe(
      'The VirtualServices team1/ratings-a,team2/ratings-b associated with mesh gateway define the same host */ratings.team1.svc.cluster.local which can lead to undefined behavior. This can be fixed by merging the conflicting VirtualServices into a single resource.',
    );
    expect(f?.level).toBe('Error');
  });

  it('findings carry the origin file and document index', async () => {
    const f = (await run(cases[2]!)).find((x) => x.object === 'VirtualService default/wronghost');
    expect(f?.origin?.file).toBe(td('vs-gateways.yaml'));
    expect(f?.origin?.doc).toBe(4);
  });
});

describe('Bookinfo (Istio samples, as they are)', () => {
  const B = (...p: string[]) => bookinfo(...p);
  const analyzeFiles = async (...files: string[]) => analyze((await loadMesh(files)).snapshot).findings;

  it('virtual-service-reviews-v3 without destination-rule-reviews → IST0101 reviews+v3 (destinationrules.go)', async () => {
    const fs = await analyzeFiles(B('platform', 'bookinfo.yaml'), B('networking', 'virtual-service-reviews-v3.yaml'));
    expect(fs.map((f) => [f.code, f.object, f.path, f.message])).toEqual([
      [
        'IST0101',
        'VirtualService default/reviews',
        'spec.http[0].route[0].destination.subset',
        'Referenced host+subset in destinationrule not found: "reviews+v3"',
      ],
    ]);
    expect(hasErrors(fs)).toBe(true);
  });

  it('with destination-rule-reviews the subset exists and v1..v3 each select a reviews pod → no findings', async () => {
    const fs = await analyzeFiles(
      B('platform', 'bookinfo.yaml'),
      B('networking', 'destination-rule-reviews.yaml'),
      B('networking', 'virtual-service-reviews-v3.yaml'),
    );
    expect(fs).toEqual([]);
  });

  it('destination-rule-all + bookinfo-gateway: ratings v2-mysql / v2-mysql-vm select no pod (IST0173), no ingress pod (IST0101 selector)', async () => {
    // subset.go: a Kubernetes Service contributes no workload selector, so a subset selects by its own labels only —
    // ratings v2 and details v2 ({version: v2}) are satisfied by the reviews-v2 pods, as in Istio.
    const fs = await analyzeFiles(
      B('platform', 'bookinfo.yaml'),
      B('networking', 'destination-rule-all.yaml'),
      B('networking', 'virtual-service-all-v1.yaml'),
      B('networking', 'bookinfo-gateway.yaml'),
    );
    expect(fs.map((f) => [f.code, f.object, f.path])).toEqual([
      ['IST0101', 'Gateway default/bookinfo-gateway', 'spec.selector'],
      ['IST0173', 'DestinationRule default/ratings', 'spec.subsets[2].name'],
      ['IST0173', 'DestinationRule default/ratings', 'spec.subsets[3].name'],
      // destinationhosts.go analyzeSubset: the gateway's VirtualService `bookinfo` routes to productpage without a
      // subset while virtual-service-all-v1's `productpage` (hosts [productpage]) routes it to subset v1.
      ['IST0140', 'VirtualService default/bookinfo', 'spec.http[0].route[0].destination.host'],
    ]);
  });

  it('the Gateway API variant: no IST0162 on the Istio Gateways istiod generates per listener (istioctl never sees them)', async () => {
    const fs = await analyzeFiles(
      B('platform', 'bookinfo.yaml'),
      B('gateway-api', 'bookinfo-gateway.yaml'),
      B('gateway-api', 'route-reviews-90-10.yaml'),
    );
    expect(fs.filter((f) => f.object.includes('istio-autogenerated')).map((f) => [f.code, f.object])).toEqual([]);
  });
});

describe('robustness', () => {
  it('an analyzer never throws out of analyze(); an empty snapshot has no findings', async () => {
    const { snapshot } = await loadMesh([td('schema-errors.yaml')]);
    const broken = { ...snapshot, virtualServices: [null] } as unknown as typeof snapshot;
    const r = analyze(broken);
    expect(r.findings.some((f) => f.code === 'IST0001')).toBe(true);
    expect(analyze({ ...snapshot, errors: [], rejectedConfigs: [] }).findings).toEqual([]);
  });
});

describe('match comparison (validation.go asJSON: Go json of the match, omitempty, name removed)', () => {
  it('a default-valued field does not make a match different; a header presence match {} does', async () => {
    const { buildSnapshot } = await import('../model/snapshot');
    const vs = (http: unknown[]) => ({
      origin: { source: 'file' as const, file: 'x.yaml', doc: 0 },
      object: {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'm', namespace: 'default' },
        spec: { hosts: ['svc'], http },
      },
    });
    const route = [{ destination: { host: 'svc' } }];
    const codes = (http: unknown[]) => {
      const snap = buildSnapshot([vs(http)], { version: 1 });
      expect(snap.virtualServices).toHaveLength(1); // the input is valid, so an empty result means "no finding"
      return analyze(snap, { only: ['schema.ValidationAnalyzer.VirtualService'] }).findings.map((f) => `${f.code} ${f.path}`);
    };
    // ignoreUriCase: false is omitted by omitempty → same as the first match → IST0131 + IST0130.
    expect(
      codes([
        { match: [{ uri: { exact: '/a' } }], route },
        { match: [{ uri: { exact: '/a' }, ignoreUriCase: false }], route },
      ]),
    ).toEqual(['IST0130 spec.http[1]', 'IST0131 spec.http[1].match[0]']);
    // headers {x: {}} (present) is a non-empty map → a different match → nothing reported.
    expect(
      codes([
        { match: [{ uri: { exact: '/a' } }], route },
        { match: [{ uri: { exact: '/a' }, headers: { x: {} } }], route },
      ]),
    ).toEqual([]);
  });
});
