// Route configurations encoded virtual host by virtual host (routeEncode.ts) are byte for byte the whole message's
// encoding (proto3 binary: fields in field-number order, a repeated message field one `tag, length, bytes` per
// element — protobuf-es to-binary.js compileMessage), on every route configuration of every golden case's proxies;
// virtual hosts met again are taken from the kept bytes.
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { translateProxy } from '../translate/index';
import { goldenCaseNames, loadGoldenCase } from '../translate/testing/goldenCases';
import { createSizedCache } from './cache';
import type { EncodeTemplate } from './encodeTemplate';
import { encodeRouteConfiguration, type RouteParts, virtualHostVary } from './routeEncode';

describe('encodeRouteConfiguration (virtual host by virtual host)', () => {
  it('equals the whole-message encoding on every golden route configuration, again from the kept bytes', () => {
    const parts: RouteParts = {
      bytes: createSizedCache<Uint8Array>(64 * 1024 * 1024, (b) => b.length),
      templates: createSizedCache<EncodeTemplate | null>(64 * 1024 * 1024, (t) => (t ? t.bytes.length : 1)),
      templated: 0,
    };
    let routes = 0;
    let multi = 0;
    for (const name of goldenCaseNames({ fixtures: false })) {
      const c = loadGoldenCase(name);
      for (const { proxy } of c.proxies) {
        if (!proxy) continue;
        for (const r of translateProxy(c.snapshot, proxy, c.options).routes) {
          const whole = encodeResource(TYPE.route, r.name ?? '', r);
          for (let i = 0; i < 2; i++) {
            const split = encodeRouteConfiguration(r.name ?? '', r as Record<string, unknown>, parts);
            expect(Buffer.from(split.bytes).equals(Buffer.from(whole.bytes)), `${name} ${proxy.id} ${r.name}`).toBe(true);
            expect(split.hash).toBe(whole.hash);
          }
          routes++;
          if ((r.virtualHosts ?? []).length > 1) multi++;
        }
      }
    }
    expect(multi).toBeGreaterThan(20); // not vacuous: many route configurations went virtual host by virtual host
    expect(routes).toBeGreaterThan(multi);
    expect(parts.bytes.size).toBeGreaterThan(0);
  }, 300_000);

  it('varies a virtual host in its service hostname, name, namespace and IPv4 domains only', () => {
    // istiod route.BuildSidecarVirtualHostWrapper: name `host:port`, domains the host, its short forms and the ClusterIP.
    const vh = {
      name: 'reviews.bookinfo.svc.cluster.local:9080',
      domains: ['reviews.bookinfo.svc.cluster.local', 'reviews', 'reviews.bookinfo', '10.96.12.7', 'fd00::7'],
    };
    expect(virtualHostVary(vh)).toEqual(['reviews.bookinfo.svc.cluster.local', '10.96.12.7', 'bookinfo', 'reviews']);
    // `*` and short names are not varied (they stay in the template key).
    expect(virtualHostVary({ name: 'allow_any', domains: ['*'] })).toBeUndefined();
  });
});
