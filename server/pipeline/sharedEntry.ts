// What an entry of the shared translation cache (sharedResources.ts) is made of, for the cache and its helpers
// (keyMemos.ts, scopeParts.ts, scopeEndpoints.ts): its key (`version \0 options \0 inputs`; a scope part's and
// its CLAs' keys start the same way), the options' JSON in every key, an entry's estimated size (the cache's byte
// bounds); and what the cache is told from outside (CacheAdvance, ReleaseGrace: re-exported by sharedResources.ts).
import type { EncodedResource } from '../envoy/encode';
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyInputsKey } from '../translate/proxyInputs';
import { GENERATORS } from './generators';
import type { ScopePart } from './scopeSharing';
import type { ProxyResources } from './types';

/** Estimated bytes an entry holds: its encoded bytes and their JSON (about 4× the bytes), plus a little. */
export function resourcesSize(r: ProxyResources): number {
  let n = 1024;
  // Plain loops, not encodedOf's generator: sized on every set, e.g. ztunnel's 12,000 Addresses per push.
  for (const g of GENERATORS) {
    const list = r[g.list];
    if (list) for (let i = 0; i < list.length; i++) n += 5 * list[i]!.bytes.length + 200;
  }
  return n;
}

/** An entry made of a scope's outbound part and its own inbound resources: the references, and its own resources' bytes. */
function scopedSize(r: ProxyResources, own: readonly EncodedResource[]): number {
  let n = 1024;
  // 16 per reference, counted per list (iterating encodedOf's generator took ~0.3 ms per 5x sidecar on every refresh).
  for (const g of GENERATORS) n += 16 * (r[g.list]?.length ?? 0);
  for (const e of own) n += 5 * e.bytes.length + 200;
  return n;
}

/** Each entry's estimated size (the shared cache's byte bound), computed when it is first stored (an entry's content never changes). */
export class EntrySizes {
  /** Entries made from a scope part → their own (inbound) resources: what they hold alone. */
  private readonly own = new WeakMap<ProxyResources, readonly EncodedResource[]>();
  private readonly sizes = new WeakMap<ProxyResources, number>();

  sizeOf(r: ProxyResources): number {
    // Sized once per entry object: advance() re-keys every carried entry on each change (1,000s per push).
    let n = this.sizes.get(r);
    if (n === undefined) {
      const own = this.own.get(r);
      this.sizes.set(r, (n = own ? scopedSize(r, own) : resourcesSize(r)));
    }
    return n;
  }
  /** The own resources of an entry made from a scope part (undefined: not made from one). */
  ownOf(r: ProxyResources): readonly EncodedResource[] | undefined {
    return this.own.get(r);
  }
  /** `r` is made of a scope part's references beside `own`: set before `r` is stored (then sized). */
  setOwn(r: ProxyResources, own: readonly EncodedResource[]): void {
    this.own.set(r, own);
  }
}

export const partSize = (p: ScopePart): number => resourcesSize({ ...p, proxy: undefined as never, version: 0, errors: [] });

/** `version \0 options \0 inputs`: a hit is valid by construction. */
export function sharedResourceKey(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): string {
  return `${snapshot.version}\u0000${JSON.stringify(options)}\u0000${proxyInputsKey(snapshot, proxy, options)}`;
}

export const versionOf = (key: string): number => Number(key.slice(0, key.indexOf('\u0000')));
export const withVersion = (key: string, version: number): string => `${version}${key.slice(key.indexOf('\u0000'))}`;

/** What a change did to the snapshot, for SharedResourceCache.advance. */
export interface CacheAdvance {
  /** Every proxy may be affected. */
  all: boolean;
  /** Proxies that may be affected (ids of either snapshot). */
  proxies: ReadonlySet<string>;
  /** An endpoint-only change: the hostnames whose endpoints moved (affected entries keep all but those CLAs). */
  endpointHosts?: ReadonlySet<string>;
  /** The store keys that changed (inboundCarry.ts: a change of VirtualServices only keeps the carried inbound resources). */
  changed?: readonly string[];
}

/** How long entries whose last user left stay for a reconnect (ms; 0: dropped at once), and the clock that says when. */
export interface ReleaseGrace {
  graceMs: number;
  now: () => number;
}

/** Each options object's JSON (in every key) and a short tag of its own for the key memo (keyOf runs per generate). */
export class OptionsText {
  private readonly text = new WeakMap<TranslateOptions, { json: string; tag: string }>();
  private tags = 0;

  /** `options`' JSON, made once per options object (a snapshot's options object lives as long as the snapshot). */
  of(options: TranslateOptions): { json: string; tag: string } {
    let t = this.text.get(options);
    if (!t) this.text.set(options, (t = { json: JSON.stringify(options), tag: `o${++this.tags}` }));
    return t;
  }
}
