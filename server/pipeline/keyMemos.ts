// The shared translation cache's entry keys (sharedResources.ts keyOf), memoised per snapshot and proxy:
// generating is per push, keys per snapshot. A registry proxy's translation inputs are kept beside its key until
// its scope key is made (scopeParts.ts); a leaving proxy's memos go with it, or with the cache's release grace.
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { type ProxyInputs, proxyInputs } from '../translate/proxyInputs';
import { type OptionsText, sharedResourceKey, versionOf } from './sharedEntry';

export class KeyMemos {
  private readonly keys = new WeakMap<MeshSnapshot, Map<string, string>>();
  /** The key memo of the latest snapshot keys were made for (release() forgets a proxy's keys there). */
  private lastKeys: Map<string, string> | undefined;
  /** Key memos of `lastKeys` whose proxy left (memo key → when): kept for the release grace, as its entries are. */
  private readonly releasedMemos = new Map<string, number>();
  /** Registry proxies' translation inputs by key, until their scope key is made (fromScope). */
  private readonly inputs = new Map<string, ProxyInputs>();
  /** Each options object's JSON (in every key) and a short tag of its own for the key memo (keyOf runs per generate). */
  private readonly options: OptionsText;

  constructor(options: OptionsText) {
    this.options = options;
  }

  /** The key of `proxy` in `snapshot` (memoised per snapshot: generating is per push, keys per snapshot). */
  keyOf(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): string {
    // A kind whose translation reads nothing of the proxy (ztunnel) is shared by every client of it, and, like a
    // node-made proxy's, never carried to the next snapshot (change impact names registry proxies only).
    if (!proxyKind(proxy).perProxy) return `node\u0000${sharedResourceKey(snapshot, proxy, options)}`;
    const registry = snapshot.proxiesById.get(proxy.id) === proxy;
    if (!registry) return `node\u0000${sharedResourceKey(snapshot, proxy, options)}\u0000${JSON.stringify(proxy)}`;
    let m = this.keys.get(snapshot);
    if (!m) this.keys.set(snapshot, (m = new Map()));
    if (this.lastKeys !== m) this.releasedMemos.clear(); // they were the previous snapshot's memos
    this.lastKeys = m;
    const opts = this.options.of(options);
    const memo = `${proxy.id}\u0000${opts.tag}`;
    if (this.releasedMemos.size > 0) this.releasedMemos.delete(memo); // back within the grace
    let k = m.get(memo);
    if (k === undefined) {
      // sharedResourceKey, with the inputs kept for the scope key (one proxyInputs per proxy and snapshot)
      const inputs = proxyInputs(snapshot, proxy, options);
      this.inputs.set((k = `${snapshot.version}\u0000${opts.json}\u0000${JSON.stringify(inputs)}`), inputs);
      m.set(memo, k);
    }
    return k;
  }

  /** The translation inputs keyOf kept for entry key `key` (undefined: none kept). */
  inputsOf(key: string): ProxyInputs | undefined {
    return this.inputs.get(key);
  }

  /** The inputs kept for `key` are no longer needed (its entry was found or made). */
  dropInputs(key: string): void {
    this.inputs.delete(key);
  }

  /** Proxies that left: their key memos go now, or, with a release grace (`graceMs` > 0), are kept from `now` until expire. */
  release(gone: ReadonlySet<string>, now: number, graceMs: number): void {
    if (this.lastKeys)
      for (const memoKey of [...this.lastKeys.keys()])
        if (gone.has(memoKey.slice(0, memoKey.indexOf('\u0000')))) {
          if (graceMs > 0) this.releasedMemos.set(memoKey, now);
          else this.lastKeys.delete(memoKey);
        }
  }

  /** Drops the released memos whose grace has run out at `now`. */
  expire(now: number, graceMs: number): void {
    for (const [memo, at] of [...this.releasedMemos]) {
      if (now - at < graceMs) continue;
      this.releasedMemos.delete(memo);
      this.lastKeys?.delete(memo);
    }
  }

  /** When the oldest released memo was released (undefined: none is held). */
  oldestRelease(): number | undefined {
    let oldest: number | undefined;
    for (const at of this.releasedMemos.values()) if (oldest === undefined || at < oldest) oldest = at;
    return oldest;
  }

  /** A new snapshot version: inputs kept for older versions' keys go. */
  advance(to: number): void {
    for (const key of [...this.inputs.keys()]) if (versionOf(key) !== to) this.inputs.delete(key);
  }

  /** The cache holds no entry any more: no kept inputs either. */
  idle(): void {
    this.inputs.clear();
  }

  clear(): void {
    this.lastKeys?.clear();
    this.releasedMemos.clear();
    this.inputs.clear();
  }

  /** Proxy → key memos of the current snapshot. */
  get size(): number {
    return this.lastKeys?.size ?? 0;
  }
}
