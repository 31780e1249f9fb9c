// Istio's analyzer test grid (pkg/config/analysis/analyzers/analyzers_test.go, `testGrid`), replayed on inputs
// written here (./testdata/grid, see its README): for each grid entry whose analyzer meshscope implements, the
// same situation, run through `meshscope analyze` — the loader and analyze() the CLI uses, the CLI command
// itself in-process, and one real CLI process — compared with the messages (code + object) the entry expects.
// Like Istio's (`ConsistOf`), the comparison is a multiset: every expected message, nothing else, from that analyzer.
// Every object of every input must load: incomplete ones (null lists, no spec, no destination) included.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../cli/commands/analyze';
import { loadMesh } from '../cli/load';
import { REPO_ROOT } from '../testing/paths';
import { analyze, type Finding } from './index';

type Message = [code: string, object: string];
interface GridCase {
  /** The testGrid entry's name in analyzers_test.go. */
  istio: string;
  /** meshscope's analyzer (meta.name), Istio's analyzer of that entry. */
  analyzer: string;
  files: string[];
  expected: Message[];
}

const GRID = join(import.meta.dirname, 'testdata', 'grid');
const file = (f: string) => join(GRID, f);
const INGRESS = 'common/ingressgateway.yaml';

const GATEWAY_PORTS = 'gateway.IngressGatewayPortAnalyzer';
const SIDECAR = 'sidecar.SelectorAnalyzer';
const MESH_HOSTS = 'virtualservice.ConflictingMeshGatewayHostsAnalyzer';
const DEST_HOSTS = 'virtualservice.DestinationHostAnalyzer';
const DEST_RULES = 'virtualservice.DestinationRuleAnalyzer';
const VS_GATEWAYS = 'virtualservice.GatewayAnalyzer';
const UNREACHABLE = 'schema.ValidationAnalyzer.VirtualService';
const CA = 'destinationrule.CaCertificateAnalyzer';
const SUBSETS = 'destinationrule.SubsetSelectPodAnalyzer';
const CONFLICTING_GATEWAYS = 'gateway.ConflictingGatewayAnalyzer';
const bothShops: Message[] = [
  ['IST0145', 'Gateway edge/shop-a'],
  ['IST0145', 'Gateway edge/shop-b'],
];

const cases: GridCase[] = [
  {
    istio: 'gatewayNoWorkload',
    analyzer: GATEWAY_PORTS,
    files: ['gateway-no-workload.yaml', INGRESS],
    expected: [['IST0101', 'Gateway shop/storefront']],
  },
  {
    istio: 'gatewayBadPort',
    analyzer: GATEWAY_PORTS,
    files: ['gateway-bad-port.yaml', INGRESS],
    expected: [['IST0162', 'Gateway shop/storefront']],
  },
  { istio: 'gatewayCorrectPort', analyzer: GATEWAY_PORTS, files: ['gateway-good-port.yaml', INGRESS], expected: [] },
  { istio: 'gatewayCustomIngressGateway', analyzer: GATEWAY_PORTS, files: ['gateway-custom-ok.yaml'], expected: [] },
  {
    istio: 'gatewayCustomIngressGatewayBadPort',
    analyzer: GATEWAY_PORTS,
    files: ['gateway-custom-badport.yaml'],
    expected: [['IST0162', 'Gateway partners/partner-edge']],
  },
  {
    istio: 'gatewayCustomIngressGatewayBadPortWithoutTarget',
    analyzer: GATEWAY_PORTS,
    files: ['gateway-custom-notarget.yaml'],
    expected: [['IST0162', 'Gateway partners/partner-edge']],
  },
  { istio: 'gatewayCustomIngressGatewayTranslation', analyzer: GATEWAY_PORTS, files: ['gateway-custom-translation.yaml'], expected: [] },
  {
    istio: 'gatewayServiceMatchPod',
    analyzer: GATEWAY_PORTS,
    files: ['gateway-svc-selector.yaml'],
    expected: [['IST0162', 'Gateway shop/edge-a-7002']],
  },
  {
    istio: 'sidecarDefaultSelector',
    analyzer: SIDECAR,
    files: ['sidecar-default-selector.yaml'],
    expected: [
      ['IST0111', 'Sidecar beta/beta-one'],
      ['IST0111', 'Sidecar beta/beta-two'],
      ['IST0167', 'Sidecar mesh-ambient/ns-wide'],
      ['IST0167', 'Sidecar mesh-ambient/for-worker'],
    ],
  },
  {
    istio: 'sidecarSelector',
    analyzer: SIDECAR,
    files: ['sidecar-selector.yaml'],
    expected: [
      ['IST0101', 'Sidecar shop/ghost'],
      ['IST0101', 'Sidecar partners/cart-elsewhere'],
      ['IST0110', 'Sidecar shop/cart-a'],
      ['IST0110', 'Sidecar shop/cart-b'],
      ['IST0110', 'Sidecar shop/by-app'],
      ['IST0110', 'Sidecar shop/by-tier'],
    ],
  },
  {
    istio: 'virtualServiceConflictingMeshGatewayHosts',
    analyzer: MESH_HOSTS,
    files: ['vs-mesh-hosts-conflict.yaml'],
    expected: [
      ['IST0109', 'VirtualService warehouse/stock'],
      ['IST0109', 'VirtualService depot/stock'],
      ['IST0109', 'VirtualService shop/pricing'],
      ['IST0109', 'VirtualService edge/pricing'],
      ['IST0109', 'VirtualService shop/web'],
      ['IST0109', 'VirtualService shop/web-canary'],
      ['IST0109', 'VirtualService billing/pricing'],
    ],
  },
  {
    istio: 'virtualServiceConflictingMeshGatewayHostsWithExportTo',
    analyzer: MESH_HOSTS,
    files: ['vs-mesh-hosts-exportto.yaml'],
    expected: [
      ['IST0109', 'VirtualService east/catalog-a'],
      ['IST0109', 'VirtualService west/catalog-a'],
      ['IST0109', 'VirtualService east/catalog-c'],
      ['IST0109', 'VirtualService west/catalog-c'],
      ['IST0109', 'VirtualService east/catalog-d'],
      ['IST0109', 'VirtualService west/catalog-d'],
    ],
  },
  {
    istio: 'virtualServiceDestinationHosts',
    analyzer: DEST_HOSTS,
    files: ['vs-destination-hosts.yaml'],
    expected: [
      ['IST0101', 'VirtualService shop/cart-missing'], // the route without a destination: host ""
      ['IST0101', 'VirtualService shop/cart-missing'],
      ['IST0101', 'VirtualService shop/to-partner-private'],
      ['IST0101', 'VirtualService shop/cart-mirror-missing'],
      ['IST0101', 'VirtualService shop/cart-wrong-port'],
      ['IST0112', 'VirtualService shop/dual-no-port'],
      ['IST0101', 'VirtualService istio-system/ledger-from-system'],
      ['IST0101', 'VirtualService greet/greeter-export-typo'],
    ],
  },
  {
    istio: 'virtualServiceDestinationRules',
    analyzer: DEST_RULES,
    files: ['vs-destination-rules.yaml'],
    expected: [
      ['IST0101', 'VirtualService shop/cart-unknown-subset'],
      ['IST0101', 'VirtualService shop/cart-mirror-unknown-subset'],
    ],
  },
  {
    istio: 'virtualServiceGateways',
    analyzer: VS_GATEWAYS,
    files: ['vs-gateways.yaml'],
    expected: [
      ['IST0101', 'VirtualService default/shop-front-typo'],
      ['IST0132', 'VirtualService default/shop-partner'],
      ['IST0132', 'VirtualService default/shop-front-typo'],
      ['IST0132', 'VirtualService default/shop-front'],
    ],
  },
  {
    istio: 'dupmatches',
    analyzer: UNREACHABLE,
    files: ['vs-dupmatches.yaml', 'vs-overlapping.yaml'],
    expected: [
      ['IST0130', 'VirtualService default/same-prefix-twice'],
      ['IST0130', 'VirtualService shop/catch-all-first'],
      ['IST0131', 'VirtualService default/partly-used'],
      ['IST0131', 'VirtualService default/same-prefix-twice'],
      ['IST0130', 'VirtualService default/tcp-same-port'],
      ['IST0130', 'VirtualService default/tcp-no-match-twice'],
      ['IST0131', 'VirtualService default/tcp-partly-used'],
      ['IST0131', 'VirtualService default/tcp-same-port'],
      ['IST0130', 'VirtualService egress/tls-same-sni'],
      ['IST0131', 'VirtualService egress/tls-partly-used'],
      ['IST0131', 'VirtualService egress/tls-same-sni'],
      ['IST0131', 'VirtualService default/covered-without-method'],
      ['IST0131', 'VirtualService default/covered-in-one-rule'],
      ['IST0131', 'VirtualService default/covered-across-rules'],
      ['IST0131', 'VirtualService default/covered-other-methods'],
    ],
  },
  {
    istio: 'host defined in virtualservice not found in the gateway',
    analyzer: VS_GATEWAYS,
    files: ['vs-host-not-in-gateway.yaml'],
    expected: [
      ['IST0132', 'VirtualService default/front-1-wrong'],
      ['IST0132', 'VirtualService default/front-2-wrong'],
      ['IST0132', 'VirtualService default/front-3-partial'],
      ['IST0132', 'VirtualService default/front-4-wrong'],
    ],
  },
  {
    istio: 'host defined in virtualservice not found in the gateway with ns',
    analyzer: VS_GATEWAYS,
    files: ['vs-host-not-in-gateway-ns.yaml'],
    expected: [['IST0132', 'VirtualService default/portal-dot']],
  },
  {
    istio: 'destinationrule with no cacert, simple at destinationlevel',
    analyzer: CA,
    files: ['dr-ca-simple-destination.yaml'],
    expected: [['IST0128', 'DestinationRule payments/ledger-tls']],
  },
  {
    istio: 'destinationrule with no cacert, mutual at destinationlevel',
    analyzer: CA,
    files: ['dr-ca-mutual-destination.yaml'],
    expected: [['IST0128', 'DestinationRule payments/ledger-mtls']],
  },
  {
    istio: 'destinationrule with no cacert, simple at portlevel',
    analyzer: CA,
    files: ['dr-ca-simple-port.yaml'],
    expected: [['IST0129', 'DestinationRule payments/ledger-tls']],
  },
  {
    istio: 'destinationrule with credentialname, simple at destinationlevel, no workloadSelector',
    analyzer: CA,
    files: ['dr-ca-credential-destination.yaml'],
    expected: [['IST0128', 'DestinationRule payments/ledger-tls']],
  },
  {
    istio: 'destinationrule with credentialname, simple at destinationlevel, workloadSelector',
    analyzer: CA,
    files: ['dr-ca-credential-destination-selector.yaml'],
    expected: [],
  },
  {
    istio: 'destinationrule with credentialname, simple at portlevel, no workloadSelector',
    analyzer: CA,
    files: ['dr-ca-credential-port.yaml'],
    expected: [['IST0129', 'DestinationRule payments/ledger-tls']],
  },
  {
    istio: 'destinationrule with credentialname, simple at portlevel, workloadSelector',
    analyzer: CA,
    files: ['dr-ca-credential-port-selector.yaml'],
    expected: [],
  },
  {
    istio: 'destinationrule with no cacert, mutual at portlevel',
    analyzer: CA,
    files: ['dr-ca-mutual-port.yaml'],
    expected: [['IST0129', 'DestinationRule payments/ledger-mtls']],
  },
  {
    istio: 'destinationrule with no cacert, mutual at destinationlevel and simple at port level',
    analyzer: CA,
    files: ['dr-ca-compound-mutual-simple.yaml'],
    expected: [
      ['IST0128', 'DestinationRule payments/ledger-mtls'],
      ['IST0129', 'DestinationRule payments/ledger-mtls'],
    ],
  },
  {
    istio: 'destinationrule with no cacert, simple at destinationlevel and mutual at port level',
    analyzer: CA,
    files: ['dr-ca-compound-simple-mutual.yaml'],
    expected: [
      ['IST0129', 'DestinationRule payments/ledger-mtls'],
      ['IST0128', 'DestinationRule payments/ledger-mtls'],
    ],
  },
  { istio: 'destinationrule with both cacerts', analyzer: CA, files: ['dr-ca-with-ca.yaml'], expected: [] },
  { istio: 'conflicting gateways detect', analyzer: CONFLICTING_GATEWAYS, files: ['gateways-conflicting.yaml'], expected: bothShops },
  {
    istio: 'gateways with different port are non-conflicting',
    analyzer: CONFLICTING_GATEWAYS,
    files: ['gateways-different-port.yaml'],
    expected: [],
  },
  {
    istio: 'conflicting gateways with multiple port declarations',
    analyzer: CONFLICTING_GATEWAYS,
    files: ['gateways-conflicting-ports.yaml'],
    expected: bothShops,
  },
  {
    istio: 'conflicting gateways detect by sub selector',
    analyzer: CONFLICTING_GATEWAYS,
    files: ['gateways-conflicting-subselector.yaml'],
    expected: bothShops,
  },
  { istio: 'conflicting gateways detect: no port', analyzer: CONFLICTING_GATEWAYS, files: ['gateways-no-port.yaml'], expected: [] },
  {
    istio: 'Analyze conflicting gateway with list type',
    analyzer: CONFLICTING_GATEWAYS,
    files: ['gateways-list.yaml'],
    expected: [
      ['IST0145', 'Gateway edge/shop'],
      ['IST0145', 'Gateway edge/shop-list-a'],
      ['IST0145', 'Gateway edge/shop-list-b'],
    ],
  },
  {
    istio: 'Route Rule no effect on Ingress',
    analyzer: DEST_HOSTS,
    files: ['vs-ingress-subset.yaml'],
    expected: [['IST0140', 'VirtualService shop/storefront']],
  },
  {
    istio: 'DestinationRuleWithFakeHost',
    analyzer: SUBSETS,
    files: ['dr-fake-host.yaml'],
    expected: [['IST0174', 'DestinationRule shop/ghost']],
  },
  {
    istio: 'DestinationRuleSubsetsNotSelectPods',
    analyzer: SUBSETS,
    files: ['dr-subsets-no-pods.yaml'],
    expected: [['IST0173', 'DestinationRule shop/search']],
  },
  { istio: 'DestinationRuleSubsetsWithTopologyLabels', analyzer: SUBSETS, files: ['dr-subsets-topology.yaml'], expected: [] },
  {
    istio: 'DestinationRuleEmptyTopologyLabels',
    analyzer: SUBSETS,
    files: ['dr-subsets-empty-topology.yaml'],
    expected: [['IST0173', 'DestinationRule shop/search']],
  },
];

const sortMessages = (m: readonly Message[]): Message[] => [...m].sort((a, b) => a.join('\0').localeCompare(b.join('\0')));
const messages = (findings: readonly Finding[]): Message[] => sortMessages(findings.map((f) => [f.code, f.object]));

/** `meshscope analyze -o json` in-process: the CLI command's own function, with its stdout/stderr captured. */
async function analyzeCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const chunks = { stdout: '', stderr: '' };
  const sink = (k: 'stdout' | 'stderr') =>
    new Writable({
      write(c, _e, cb) {
        chunks[k] += String(c);
        cb();
      },
    });
  const code = await analyzeCommand(args, { stdout: sink('stdout'), stderr: sink('stderr') });
  return { code, ...chunks };
}

describe("Istio's analyzer grid (analyzers_test.go testGrid) on meshscope's own inputs", () => {
  for (const c of cases) {
    it(`${c.istio} (${c.analyzer})`, async () => {
      const { snapshot } = await loadMesh(c.files.map(file));
      // Every object loads: the only errors are Istio validation errors of objects kept for analysis.
      const kept = new Set((snapshot.rejectedConfigs ?? []).map((r) => `${r.kind} ${r.meta.namespace}/${r.meta.name}`));
      expect(snapshot.errors.filter((e) => e.severity === 'error' && !kept.has(e.object ?? ''))).toEqual([]);
      expect(snapshot.errors.filter((e) => e.notTranslated && !kept.has(e.object ?? ''))).toEqual([]);

      const got = analyze(snapshot, { only: [c.analyzer] });
      expect(got.analyzers).toEqual([c.analyzer]);
      expect(messages(got.findings)).toEqual(sortMessages(c.expected));

      // The CLI command prints them too (with every other analyzer's findings), and exits 1 on an Error.
      const cli = await analyzeCli(['-o', 'json', ...c.files.flatMap((f) => ['--config', file(f)])]);
      const all = JSON.parse(cli.stdout) as Finding[];
      const printed = new Set(all.map((f) => `${f.code} ${f.object}`));
      for (const [code, object] of c.expected) expect(printed).toContain(`${code} ${object}`);
      expect(cli.code).toBe(all.some((f) => f.level === 'Error') ? 1 : 0);
    });
  }

  it('objects failing Istio validation are analyzed, reported IST0106 and listed as not translated (table output)', async () => {
    // gatewayNoWorkload's Gateway has no servers: Istio's validation rejects it ("gateway must have at least one
    // server"), istioctl analyze still runs the gateway analyzer on it (IST0101 above).
    const r = await analyzeCli(['--config', file('gateway-no-workload.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Error\s+IST0106\s+Gateway shop\/storefront\s+spec\.servers\s/);
    expect(r.stdout).toMatch(/Error\s+IST0101\s+Gateway shop\/storefront\s+spec\.selector\s/);
    const lines = readFileSync(file('gateway-no-workload.yaml'), 'utf8').split('\n');
    expect(r.stdout).toContain(`gateway-no-workload.yaml:0 (line ${lines.indexOf('  selector:') + 1})  Referenced selector not found`);
    expect(r.stdout).toContain('\nNot translated:\n  Gateway shop/storefront (');
    expect(r.stdout).toContain("fails Istio validation (1 error), so istiod's validating webhook would reject it");
  });

  it('a real `meshscope analyze -o json` process gives the sidecarSelector messages', () => {
    const r = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'bin', 'meshscope.mjs'), 'analyze', '-o', 'json', '--config', file('sidecar-selector.yaml')],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(1); // IST0101 / IST0110 are Errors
    const sidecar = cases.find((c) => c.istio === 'sidecarSelector')!;
    const findings = JSON.parse(r.stdout) as Finding[];
    expect(messages(findings.filter((f) => f.object.startsWith('Sidecar ')))).toEqual(sortMessages(sidecar.expected));
    const ghost = findings.find((f) => f.object === 'Sidecar shop/ghost')!;
    expect(ghost).toMatchObject({
      level: 'Error',
      message: 'Referenced selector not found: "app=ghost"',
      path: 'spec.workloadSelector.labels',
    });
    // Located at the line of its field in the file: the `labels:` key under the ghost Sidecar's workloadSelector.
    const text = readFileSync(file('sidecar-selector.yaml'), 'utf8').split('\n');
    expect(ghost.origin).toMatchObject({ source: 'file', doc: 5, line: text.indexOf('    labels: {app: ghost}') + 1 });
    const conflict = findings.find((f) => f.object === 'Sidecar shop/cart-a')!;
    expect(conflict.message).toBe(
      'The Sidecars [cart-a cart-b] in namespace "shop" select the same workload pod "cart", which can lead to undefined behavior.',
    );
  });
});
