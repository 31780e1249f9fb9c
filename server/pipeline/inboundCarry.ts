// A sidecar's own (inbound) resources carried across snapshot versions. istiod's XdsCache keys a resource by the
// configs that shaped it (pilot/pkg/model/xds_cache.go, networking/core/cluster_cache.go): a change to a config that
// shaped none of a proxy's inbound listeners and clusters leaves them cached. Here the inbound build
// (translate/inboundOnly.ts) reads a view whose VirtualServices are empty (buildProxyView part 'inbound'), so a
// change of VirtualServices only cannot change what it builds for equal translation inputs; any other change (a
// DestinationRule, a policy, the mesh config, endpoints…) empties the carry. Keyed by the options and the proxy's
// inbound inputs (translate/proxyInputs.ts inboundInputsKey: pods of one Service that differ only in labels no
// selector reads share one entry, in one snapshot and across versions), bounded by a count; each entry remembers
// the proxies (by their translation inputs) it was handed to, and goes when the last of them left. Checked by server/impact/xdsPlane.test.ts
// (every mutation through a cache filled from the old snapshot and advanced == translated afresh).
import { createSizedCache, type SizedCache } from './cache';
import type { ProxyResources } from './types';

/** The kinds whose objects no inbound build reads (the inbound view leaves VirtualServices out). */
const SHAPE_NO_INBOUND: ReadonlySet<string> = new Set(['VirtualService']);

/** The kind of a store key (`group/version/kind/namespace/name`; the core group is empty). */
const kindOf = (key: string): string | undefined => key.split('/')[2];

export class InboundCarry {
  private readonly byInputs: SizedCache<ProxyResources>;
  /** A user (a proxy's translation inputs, without the version) → the inbound key it was handed. */
  private readonly keyOfUser = new Map<string, string>();
  /** An inbound key → its users. */
  private readonly users = new Map<string, Set<string>>();
  private readonly capacity: number;
  constructor(capacity = 4096) {
    this.capacity = capacity;
    this.byInputs = createSizedCache<ProxyResources>(capacity, () => 1);
  }
  /** `inboundKey`: the options and the proxy's inbound inputs; `user`: the proxy's translation key without its version. */
  get(inboundKey: string, user: string): ProxyResources | undefined {
    const r = this.byInputs.get(inboundKey);
    if (r) this.use(inboundKey, user);
    return r;
  }
  set(inboundKey: string, inbound: ProxyResources, user: string): void {
    this.byInputs.set(inboundKey, inbound);
    this.use(inboundKey, user);
  }
  private use(inboundKey: string, user: string): void {
    const was = this.keyOfUser.get(user);
    if (was === inboundKey) return;
    if (was !== undefined) this.users.get(was)?.delete(user);
    // Bookkeeping of users whose entries went without a release (an affected entry dropped): bounded, then restarted.
    if (this.keyOfUser.size >= 4 * this.capacity) this.clear();
    this.keyOfUser.set(user, inboundKey);
    let u = this.users.get(inboundKey);
    if (!u) this.users.set(inboundKey, (u = new Set()));
    u.add(user);
  }
  /** A new snapshot version: kept only when every changed object is of a kind no inbound build reads. */
  advance(changed: readonly string[] | undefined, endpointsOnly: boolean): void {
    const kept = !endpointsOnly && !!changed && changed.length > 0 && changed.every((k) => SHAPE_NO_INBOUND.has(kindOf(k) ?? ''));
    if (!kept) this.clear();
  }
  /** A proxy that used an entry left (its entry was released): the entry goes with its last user. */
  delete(user: string): void {
    const key = this.keyOfUser.get(user);
    if (key === undefined) return;
    this.keyOfUser.delete(user);
    const u = this.users.get(key);
    u?.delete(user);
    if (!u || u.size === 0) {
      this.users.delete(key);
      this.byInputs.delete(key);
    }
  }
  clear(): void {
    this.byInputs.clear();
    this.keyOfUser.clear();
    this.users.clear();
  }
  get size(): number {
    return this.byInputs.size;
  }
}
