// Fuzzing ADS over a real loopback gRPC server (issue #25 §3): hostile SotW and Delta streams send random
// type URLs (known, unknown, empty, huge), nonces, versions, resource names, error details and node
// identities/metadata. Properties: the server never crashes (an uncaught error fails the run), every
// hostile stream either keeps answering or ends with a gRPC status (never a hang that blocks others), and a
// well-behaved sidecar connected throughout (ACKing, as Envoy does) still gets a push of a new version,
// and a new one still gets its first response — ADS clients unaffected.
// Runs: server/testing/fuzz.ts (MESHSCOPE_FUZZ_RUNS, seeds printed on failure).
import fc from 'fast-check';
import type { JsonObject } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import type { SotwTestStream } from '../xds/testing/adsTestClient';
import { edsCluster, loadAssignment } from '../xds/testing/fixtures';
import { SIDECAR, startHarness, type Harness } from '../xds/testing/harness';
import { fuzzParams, fuzzTimeout, specValue } from '../testing/fuzz';

let h: Harness;
let steady: SotwTestStream;
let version = 1;
const resources = (v: number) => [edsCluster('c1'), edsCluster(`c${v}`), loadAssignment('c1', [['10.0.0.9', 80 + (v % 100)]])];

beforeAll(async () => {
  h = await startHarness();
  h.gen.set('v1', resources(1));
  steady = h.client.sotw(SIDECAR);
  steady.ack(await steady.request({ typeUrl: TYPE.cluster }));
});
afterAll(async () => {
  steady.cancel();
  await h.close();
});

const str = fc.oneof(
  fc.constantFrom('', 'c1', 'c2', '*', 'outbound|80||a.b.svc.cluster.local', 'v1', 'nonce-1', '0', '\u0000'),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);
const typeUrl = fc.oneof(
  fc.constantFrom(...Object.values(TYPE)),
  fc.constantFrom(
    '',
    'type.googleapis.com/envoy.config.cluster.v3.Cluster ',
    'type.googleapis.com/google.protobuf.Empty',
    'type.googleapis.com/',
  ),
  str,
);
const nodeId = fc.oneof(
  fc.constantFrom(SIDECAR.id, 'router~10.0.0.2~gw-abc.istio-system~istio-system.svc.cluster.local', '', 'garbage'),
  str,
  fc.tuple(fc.constantFrom('sidecar', 'router', 'waypoint', 'x'), str, str, str).map((p) => p.join('~')),
);
const node = fc.record({
  id: nodeId,
  cluster: fc.option(str, { nil: undefined }),
  metadata: fc.option(
    fc.dictionary(
      fc.constantFrom('NAMESPACE', 'CLUSTER_ID', 'LABELS', 'ISTIO_VERSION', 'INTERCEPTION_MODE', 'PROXY_CONFIG', 'x'),
      specValue,
      { maxKeys: 4 },
    ),
    { nil: undefined },
  ),
});
const sotwReq = fc.record({
  typeUrl,
  resourceNames: fc.array(str, { maxLength: 4 }),
  versionInfo: str,
  responseNonce: str,
  errorDetail: fc.option(fc.record({ code: fc.integer({ min: 0, max: 20 }), message: str }), { nil: undefined }),
});
const deltaReq = fc.record({
  typeUrl,
  subscribe: fc.array(str, { maxLength: 4 }),
  unsubscribe: fc.array(str, { maxLength: 3 }),
  initialResourceVersions: fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  responseNonce: str,
});

/** The stream either answers (a response or a status) or is still open; it never takes the server down. */
const settle = (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => 'answered',
      () => 'ended',
    ),
    new Promise((r) => setTimeout(() => r('open'), 100)),
  ]);

describe('fuzz: ADS over loopback gRPC', () => {
  it(
    'hostile SotW and Delta streams: no crash; a connected sidecar still gets pushes, a new one its first response',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.boolean(),
          node,
          fc.array(fc.oneof(sotwReq, deltaReq), { minLength: 1, maxLength: 6 }),
          async (delta, n, reqs) => {
            const nodeInit = {
              id: n.id,
              ...(n.cluster !== undefined ? { cluster: n.cluster } : {}),
              ...(n.metadata ? { metadata: n.metadata as JsonObject } : {}),
            };
            const s = delta ? h.client.delta(nodeInit) : h.client.sotw(nodeInit);
            for (const r of reqs) {
              if (delta && 'subscribe' in r) (s as ReturnType<Harness['client']['delta']>).send(r);
              else if (!delta && 'resourceNames' in r) (s as SotwTestStream).send(r);
            }
            await settle(s.next(2_000));
            await settle(s.ended);
            s.cancel();
            // The steady sidecar: a new version is pushed to it and it ACKs, as Envoy does.
            version++;
            h.gen.set(`v${version}`, resources(version));
            h.server.push({ proxies: 'all', reason: 'fuzz' });
            let got = await steady.next(10_000);
            while (got.versionInfo !== `v${version}`) got = await steady.next(10_000);
            steady.ack(got);
            expect(got.typeUrl).toBe(TYPE.cluster);
            // A new well-behaved client gets its first response.
            const fresh = h.client.sotw(SIDECAR);
            const first = await fresh.request({ typeUrl: TYPE.cluster }, 10_000);
            expect(first.versionInfo).toBe(`v${version}`);
            fresh.cancel();
          },
        ),
        fuzzParams(8),
      );
    },
    fuzzTimeout(8, 3_000),
  );
});
