// Listeners encoded chain by chain (listenerEncode.ts) are byte for byte the whole message's encoding (proto3
// binary: fields in field-number order, a repeated message field one `tag, length, bytes` per element —
// protobuf-es to-binary.js compileMessage), on every listener of every golden case's proxies, sidecars and
// gateways alike; chains met again are taken from the kept bytes.
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { translateProxy } from '../translate/index';
import { goldenCaseNames, loadGoldenCase } from '../translate/testing/goldenCases';
import { createSizedCache } from './cache';
import { encodeListener } from './listenerEncode';

describe('encodeListener (chain by chain)', () => {
  it('equals the whole-message encoding on every golden listener, with chains taken again from the kept bytes', () => {
    const chains = createSizedCache<Uint8Array>(64 * 1024 * 1024, (b) => b.length);
    let listeners = 0;
    let multi = 0;
    for (const name of goldenCaseNames({ fixtures: false })) {
      const c = loadGoldenCase(name);
      for (const { proxy } of c.proxies) {
        if (!proxy) continue;
        for (const l of translateProxy(c.snapshot, proxy, c.options).listeners) {
          const whole = encodeResource(TYPE.listener, l.name ?? '', l);
          // twice: the second time every chain comes from `chains`
          for (let i = 0; i < 2; i++) {
            const split = encodeListener(l.name ?? '', l as Record<string, unknown>, chains);
            expect(Buffer.from(split.bytes).equals(Buffer.from(whole.bytes)), `${name} ${proxy.id} ${l.name}`).toBe(true);
            expect(split.hash).toBe(whole.hash);
          }
          listeners++;
          if ((l.filterChains ?? []).length > 1) multi++;
        }
      }
    }
    expect(multi).toBeGreaterThan(20); // not vacuous: many listeners went chain by chain
    expect(listeners).toBeGreaterThan(multi);
    expect(chains.size).toBeGreaterThan(0);
  }, 300_000);
});
