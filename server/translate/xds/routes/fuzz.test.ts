// Robustness: malformed VirtualServices (wrong types everywhere) never make the translators throw,
// and whatever they do produce still fits Envoy's RouteConfiguration schema (DESIGN §6).
import { describe, expect, it } from 'vitest';
import type { VirtualServiceSpec } from '../../../model/istio';
import { buildSidecarRouteConfigs } from './sidecarRouteConfigs';
import { encodeRoute, service, view, virtualService } from './testing';

/** Deterministic PRNG (mulberry32) so failures are reproducible. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOST = 'reviews.default.svc.cluster.local';
const junkValues: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1.5,
  'x',
  '',
  '10s',
  true,
  [],
  {},
  ['a'],
  { exact: 1 },
  { regex: '*' },
  99999,
  'FROM_REQUEST_PORT',
];

function junkSpec(r: () => number): VirtualServiceSpec {
  const pick = () => junkValues[Math.floor(r() * junkValues.length)];
  const maybe = <T>(v: T) => (r() < 0.5 ? v : pick());
  const http = Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
    name: maybe('n'),
    match: maybe([
      {
        uri: maybe({ prefix: maybe('/p') }),
        headers: maybe({ h: pick() }),
        port: maybe(9080),
        gateways: maybe(['mesh']),
        sourceLabels: maybe({ a: 'b' }),
        queryParams: maybe({ q: pick() }),
        withoutHeaders: maybe({ w: pick() }),
      },
    ]),
    route: maybe([
      {
        destination: maybe({ host: maybe(HOST), subset: maybe('v1'), port: maybe({ number: maybe(9080) }) }),
        weight: maybe(50),
        headers: maybe({ request: maybe({ set: maybe({ a: 'b' }) }) }),
      },
      { destination: { host: HOST }, weight: maybe(50) },
    ]),
    redirect: r() < 0.15 ? { uri: maybe('/r'), port: maybe(8080), derivePort: pick(), redirectCode: maybe(302) } : undefined,
    directResponse: r() < 0.1 ? { status: maybe(503), body: maybe({ string: maybe('b'), bytes: pick() }) } : undefined,
    rewrite: maybe({ uri: maybe('/w'), authority: pick(), uriRegexRewrite: maybe({ match: pick(), rewrite: pick() }) }),
    timeout: maybe('5s'),
    retries: maybe({ attempts: maybe(3), perTryTimeout: pick(), retryOn: maybe('5xx,503'), backoff: pick() }),
    fault: maybe({
      delay: maybe({ fixedDelay: pick(), percentage: maybe({ value: pick() }) }),
      abort: maybe({ httpStatus: pick(), grpcStatus: pick() }),
    }),
    mirror: maybe({ host: HOST }),
    mirrorPercentage: maybe({ value: pick() }),
    mirrors: maybe([{ destination: maybe({ host: HOST }), percentage: pick() }]),
    corsPolicy: maybe({ allowOrigins: maybe([pick()]), allowMethods: pick(), maxAge: pick(), allowCredentials: pick() }),
    headers: maybe({ request: pick(), response: maybe({ add: maybe({ z: '1' }), remove: pick() }) }),
  }));
  return { hosts: r() < 0.9 ? [HOST] : (pick() as string[]), http: (r() < 0.95 ? http : pick()) as VirtualServiceSpec['http'] };
}

describe('malformed VirtualServices', () => {
  it('300 random malformed specs: no exception, every route config encodes', () => {
    const r = rng(20261122);
    const services = [service('reviews', 'default', [[9080]])];
    for (let i = 0; i < 300; i++) {
      const vs = virtualService(`junk-${i}`, 'default', junkSpec(r));
      const out = buildSidecarRouteConfigs(view({ services, virtualServices: [vs] }), [9080, 80]);
      for (const rc of out.routes) {
        try {
          encodeRoute(rc);
        } catch (e) {
          throw new Error(`spec #${i}: ${(e as Error).message}\n${JSON.stringify(vs.spec)}`);
        }
      }
      for (const e of out.errors) expect(e.object).toBe(`VirtualService default/junk-${i}`);
    }
  });
});
