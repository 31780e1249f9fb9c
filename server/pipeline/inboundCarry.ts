// A sidecar's own (inbound) resources carried across snapshot versions. istiod's XdsCache keys a resource by the
// configs that shaped it (pilot/pkg/model/xds_cache.go, networking/core/cluster_cache.go): a change to a config that
// shaped none of a proxy's inbound listeners and clusters leaves them cached. Here the inbound build
// (translate/inboundOnly.ts) reads a view whose VirtualServices are empty (buildProxyView part 'inbound'), so a
// change of VirtualServices only cannot change what it builds for equal translation inputs; any other change (a
// DestinationRule, a policy, the mesh config, endpoints…) empties the carry. Keyed by the options and the proxy's
// translation inputs (translate/proxyInputs.ts), bounded by a count. Checked by server/impact/xdsPlane.test.ts
// (every mutation through a cache filled from the old snapshot and advanced == translated afresh).
import { createSizedCache, type SizedCache } from './cache';
import type { ProxyResources } from './types';

/** The kinds whose objects no inbound build reads (the inbound view leaves VirtualServices out). */
const SHAPE_NO_INBOUND: ReadonlySet<string> = new Set(['VirtualService']);

/** The kind of a store key (`group/version/kind/namespace/name`; the core group is empty). */
const kindOf = (key: string): string | undefined => key.split('/')[2];

export class InboundCarry {
  private readonly byInputs: SizedCache<ProxyResources>;
  constructor(capacity = 4096) {
    this.byInputs = createSizedCache<ProxyResources>(capacity, () => 1);
  }
  /** `inputsKey`: the translation key without its snapshot version (options and proxy inputs). */
  get(inputsKey: string): ProxyResources | undefined {
    return this.byInputs.get(inputsKey);
  }
  set(inputsKey: string, inbound: ProxyResources): void {
    this.byInputs.set(inputsKey, inbound);
  }
  /** A new snapshot version: kept only when every changed object is of a kind no inbound build reads. */
  advance(changed: readonly string[] | undefined, endpointsOnly: boolean): void {
    const kept = !endpointsOnly && !!changed && changed.length > 0 && changed.every((k) => SHAPE_NO_INBOUND.has(kindOf(k) ?? ''));
    if (!kept) this.byInputs.clear();
  }
  /** The proxy that used it left (its entry was released): nothing to carry for it. */
  delete(inputsKey: string): void {
    this.byInputs.delete(inputsKey);
  }
  clear(): void {
    this.byInputs.clear();
  }
  get size(): number {
    return this.byInputs.size;
  }
}
