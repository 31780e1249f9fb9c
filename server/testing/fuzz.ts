// Property-based fuzzing support (fast-check) for the *.fuzz.test.ts suites (issue #25 §3).
//  - Bounded by default: each property runs a few dozen cases, so `npm test` stays fast.
//  - MESHSCOPE_FUZZ_RUNS=N runs every property N times (a long run: e.g. 5000); the test timeouts scale.
//  - On failure fast-check prints the seed and path ({ seed, path, endOnFailure }); replay one with
//    MESHSCOPE_FUZZ_SEED=<seed> MESHSCOPE_FUZZ_PATH=<path>.
// docs/security-and-limits.md describes the suites.
import fc from 'fast-check';
import { stringify } from 'yaml';

const envInt = (name: string): number | undefined => {
  const v = Number(process.env[name] ?? '');
  return Number.isInteger(v) && v > 0 ? v : undefined;
};

/** Runs of one property: MESHSCOPE_FUZZ_RUNS when set, else the suite's bounded default. */
export const fuzzRuns = (defaultRuns: number): number => envInt('MESHSCOPE_FUZZ_RUNS') ?? defaultRuns;

/** fast-check parameters: the run count, and the seed/path to replay when MESHSCOPE_FUZZ_SEED is set. */
export function fuzzParams<T>(defaultRuns: number): fc.Parameters<T> {
  const seed = process.env.MESHSCOPE_FUZZ_SEED;
  const path = process.env.MESHSCOPE_FUZZ_PATH;
  return {
    numRuns: fuzzRuns(defaultRuns),
    ...(seed !== undefined && seed !== '' ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
  };
}

/** A vitest timeout for a property: the default 30 s, more when MESHSCOPE_FUZZ_RUNS asks for a long run. */
export const fuzzTimeout = (defaultRuns: number, perRunMs: number): number => Math.max(30_000, fuzzRuns(defaultRuns) * perRunMs);

/** Strings that mean something to YAML, Kubernetes, Istio or RE2 — mixed into every generated value. */
const SPECIAL = [
  '',
  '*',
  '~',
  'null',
  'yes',
  'NO',
  '0x1F',
  '1e999',
  '-0',
  '.inf',
  '&a',
  '*a',
  '<<',
  '- x',
  'a: b',
  '{',
  ']',
  '#',
  '%YAML 1.1',
  '!!binary',
  '\t',
  '\n',
  '\u0000',
  '\ud800',
  'é',
  '/(a+)+b',
  'a(?=b)',
  '(a)\\1',
  '[',
  '.*',
  '^/api/.*$',
  'reviews',
  'reviews.default.svc.cluster.local',
  '*.example.com',
  'default/bookinfo-gateway',
  'mesh',
  '10.0.0.0/8',
  '::1',
  '0.0.0.0',
  '65536',
  '8080',
  'http',
  'HTTPS',
  'ISTIO_MUTUAL',
  'STRICT',
  'DENY',
  'v1',
  '100%',
];

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.integer({ min: -2, max: 70_000 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const KEYS = [
  'hosts',
  'gateways',
  'http',
  'tcp',
  'tls',
  'match',
  'route',
  'destination',
  'host',
  'subset',
  'port',
  'number',
  'weight',
  'uri',
  'prefix',
  'exact',
  'regex',
  'headers',
  'rewrite',
  'uriRegexRewrite',
  'redirect',
  'timeout',
  'retries',
  'subsets',
  'name',
  'labels',
  'trafficPolicy',
  'tls',
  'mode',
  'servers',
  'selector',
  'ports',
  'protocol',
  'targetPort',
  'endpoints',
  'address',
  'resolution',
  'egress',
  'rules',
  'from',
  'to',
  'when',
  'action',
  'mtls',
  'portLevelMtls',
  'configPatches',
  'applyTo',
  'patch',
  'value',
  'exportTo',
  'sniHosts',
  'parentRefs',
  'hostnames',
  'backendRefs',
  'matches',
  'path',
  'type',
];

/** JSON-like values shaped like Kubernetes/Istio specs (their field names, random values), depth-bounded. */
export const specValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), tie('v'), { maxKeys: 5 }),
  ),
})).v;

export const KINDS: readonly [string, string][] = [
  ['networking.istio.io/v1', 'VirtualService'],
  ['networking.istio.io/v1', 'DestinationRule'],
  ['networking.istio.io/v1', 'Gateway'],
  ['networking.istio.io/v1', 'ServiceEntry'],
  ['networking.istio.io/v1', 'Sidecar'],
  ['networking.istio.io/v1', 'WorkloadEntry'],
  ['networking.istio.io/v1', 'WorkloadGroup'],
  ['networking.istio.io/v1alpha3', 'EnvoyFilter'],
  ['security.istio.io/v1', 'PeerAuthentication'],
  ['security.istio.io/v1', 'AuthorizationPolicy'],
  ['security.istio.io/v1', 'RequestAuthentication'],
  ['telemetry.istio.io/v1', 'Telemetry'],
  ['networking.istio.io/v1beta1', 'ProxyConfig'],
  ['gateway.networking.k8s.io/v1', 'Gateway'],
  ['gateway.networking.k8s.io/v1', 'HTTPRoute'],
  ['gateway.networking.k8s.io/v1', 'GRPCRoute'],
  ['gateway.networking.k8s.io/v1alpha2', 'TCPRoute'],
  ['gateway.networking.k8s.io/v1beta1', 'ReferenceGrant'],
  ['networking.k8s.io/v1', 'Ingress'],
  ['v1', 'Service'],
  ['v1', 'Pod'],
  ['v1', 'Namespace'],
  ['v1', 'Endpoints'],
  ['v1', 'ConfigMap'],
  ['v1', 'Secret'],
  ['apps/v1', 'Deployment'],
  ['discovery.k8s.io/v1', 'EndpointSlice'],
];

const dnsName = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);

/** One object of any kind meshscope reads, with random fields (and sometimes a broken envelope). */
export const meshObject: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    kind: fc.constantFrom(...KINDS),
    name: fc.oneof({ weight: 5, arbitrary: dnsName }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) }),
    namespace: fc.option(fc.constantFrom('default', 'shop', 'team', 'istio-system', 'x'), { nil: undefined }),
    labels: fc.option(fc.dictionary(dnsName, dnsName, { maxKeys: 2 }), { nil: undefined }),
    spec: specValue,
    extra: fc.option(fc.dictionary(fc.constantFrom('data', 'status', 'subsets', 'items', 'stringData'), specValue, { maxKeys: 2 }), {
      nil: undefined,
    }),
  })
  .map(({ kind, name, namespace, labels, spec, extra }) => ({
    apiVersion: kind[0],
    kind: kind[1],
    metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) },
    spec,
    ...(extra ?? {}),
  }));

const yamlDocs = (objs: unknown[]): string => objs.map((o) => stringify(o)).join('---\n');

/** A text mutated at random places (insertions, deletions, replacements by YAML-significant characters). */
const mutate = (text: string, edits: [number, number, string][]): string => {
  let t = text;
  for (const [at, del, ins] of edits) {
    const i = t.length === 0 ? 0 : at % (t.length + 1);
    t = t.slice(0, i) + ins + t.slice(i + del);
  }
  return t;
};

/** Input files: multi-document YAML, Lists, JSON, anchors and aliases, deep nesting, huge scalars, mutations, garbage. */
export const inputText: fc.Arbitrary<string> = fc.oneof(
  fc.array(meshObject, { minLength: 1, maxLength: 4 }).map(yamlDocs),
  fc.array(meshObject, { maxLength: 4 }).map((items) => stringify({ apiVersion: 'v1', kind: 'List', items })),
  fc.array(meshObject, { maxLength: 3 }).map((items) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items })),
  meshObject.map((o) => JSON.stringify(o)),
  fc
    .tuple(
      fc.array(meshObject, { minLength: 1, maxLength: 3 }).map(yamlDocs),
      fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...SPECIAL, ':', ' ', '  ', '-', '"', "'", '|', '>')), { maxLength: 4 }),
    )
    .map(([t, edits]) => mutate(t, edits)),
  // Anchors and aliases, nested (the billion-laughs shape) and merge keys.
  fc.integer({ min: 1, max: 12 }).map((n) => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < n; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
  }),
  fc.constant(
    'base: &b {hosts: [a]}\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: m}\nspec:\n  <<: *b\n  http: [{route: [{destination: {host: a}}]}]\n',
  ),
  // Deep nesting, flow and block.
  fc
    .integer({ min: 50, max: 3000 })
    .map((d) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata: ${'['.repeat(d)}${']'.repeat(d)}\n`),
  fc
    .integer({ min: 50, max: 600 })
    .map((d) => `spec:\n${Array.from({ length: d }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} v\n`),
  // Huge scalars.
  fc
    .integer({ min: 10_000, max: 400_000 })
    .map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {k: "${'x'.repeat(n)}"}\n`),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);
