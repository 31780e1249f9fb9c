// Test helpers over built listeners: lookups and the encode check every test applies.
import { expect } from 'vitest';
import { encodeResource, type EnvoyJson } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import type { FilterChainJson } from '../../../gen/envoy/config/listener/v3/listener_components_pb';
import type { ListenerJson } from '../../../gen/envoy/config/listener/v3/listener_pb';

/** Encodes every listener (throws on a schema mismatch) and returns the Envoy JSON by name. */
export function encodeAll(listeners: readonly ListenerJson[]): Map<string, EnvoyJson> {
  const out = new Map<string, EnvoyJson>();
  for (const l of listeners) {
    const r = encodeResource(TYPE.listener, l.name ?? '', l);
    expect(r.bytes.length).toBeGreaterThan(0);
    out.set(l.name ?? '', r.json);
  }
  return out;
}

export function listener(ls: readonly ListenerJson[], name: string): ListenerJson {
  const l = ls.find((x) => x.name === name);
  if (!l) throw new Error(`no listener ${name} among ${ls.map((x) => x.name).join(', ')}`);
  return l;
}

/** The typed config of a chain's terminal filter (last filter), as loose JSON. */
export function terminal(chain: FilterChainJson | undefined): Record<string, any> {
  const f = chain?.filters?.[chain.filters.length - 1];
  if (!f) throw new Error('chain has no filters');
  return f.typedConfig as Record<string, any>;
}

export const chainNamed = (l: ListenerJson, name: string): FilterChainJson[] => (l.filterChains ?? []).filter((c) => c.name === name);
