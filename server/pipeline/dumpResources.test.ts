// dumpResources (the config dump's resources without the protobuf round trip) gives what proxyResources gives:
// the same lists, names, errors, dump JSON, and — when read — the same bytes, for every proxy of every golden
// mesh (sidecars, gateways, waypoints and ztunnels alike: the WDS types keep their own direct writer).
import { describe, expect, it } from 'vitest';
import { goldenCaseNames, loadGoldenCase } from '../translate/testing/goldenCases';
import { TYPE } from '../envoy/typeUrls';
import { WireWriter } from '../translate/ztunnel/wire';
import { DumpFirstEncoder, dumpResources } from './dumpResources';
import { proxyResources } from './proxyResources';

const LISTS = ['listeners', 'routes', 'clusters', 'endpoints', 'addresses', 'authorizations'] as const;

describe('dumpResources', () => {
  it('equals proxyResources on every proxy of every golden mesh', () => {
    const kinds = new Set<string>();
    let resources = 0;
    for (const fixtures of [false, true])
      for (const name of goldenCaseNames({ fixtures })) {
        const c = loadGoldenCase(name);
        for (const proxy of c.snapshot.proxies) {
          const fast = dumpResources(c.snapshot, proxy.id, c.options)!;
          const slow = proxyResources(c.snapshot, proxy.id, c.options)!;
          kinds.add(proxy.type);
          expect(fast.errors, `${name} ${proxy.id}`).toEqual(slow.errors);
          for (const list of LISTS) {
            const a = fast[list] ?? [];
            const b = slow[list] ?? [];
            expect(a.map((r) => r.name)).toEqual(b.map((r) => r.name));
            a.forEach((r, i) => {
              expect(JSON.stringify(r.json), `${name} ${proxy.id} ${list} ${r.name}`).toBe(JSON.stringify(b[i]!.json));
              expect(r.hash).toBe(b[i]!.hash);
              resources++;
            });
          }
        }
      }
    expect(resources).toBeGreaterThan(1000);
    expect(kinds.size).toBeGreaterThan(1);
  }, 300_000);

  it('hands the WDS types to their direct writer (a WireWriter), as EncodeMemo does', () => {
    const seen: unknown[] = [];
    const r = new DumpFirstEncoder().encode(TYPE.address, 'a', {}, (w) => {
      seen.push(w);
      return new Uint8Array([8, 1]);
    });
    expect(seen[0]).toBeInstanceOf(WireWriter);
    expect([...r.bytes]).toEqual([8, 1]);
  });

  it('is undefined for a proxy the snapshot does not have', () => {
    const c = loadGoldenCase(goldenCaseNames({ fixtures: false })[0]!);
    expect(dumpResources(c.snapshot, 'nope.nowhere', c.options)).toBeUndefined();
  });
});
