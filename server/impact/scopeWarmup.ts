// The xDS plane's warm-up: the outbound part of every Sidecar scope of the current snapshot is built before its
// first client asks. istiod does the scope half of this when it builds a PushContext (initSidecarScopes, for every
// namespace, before its XDS server reports ready: pilot/pkg/xds/discovery.go IsServerReady); its XdsCache then
// fills on first use. Here a scope's part is the whole shared outbound translation (pipeline/scopeSharing.ts), so
// building it ahead takes the 20-odd scope translations out of the first connect wave: each connecting proxy then
// costs its inbound build only. Each part's resources are also wrapped in their wire forms (the ADS server's Any and
// Delta entry bytes, xds/cache.ts), which the first stream of each scope would otherwise make.
//
// It runs while the server starts: at plane start, and again on each snapshot change until one run has warmed a
// whole snapshot or a client was found connected (a kube source's first lists arrive as changes). After that,
// changes are left to the pushes: an inspector no sidecar connects to would otherwise re-translate every scope on
// each change of a live cluster. One scope per turn of the event loop; ADS serves throughout (a client that connects
// meanwhile builds what it needs, and the warm-up skips what is built). A run stops at a newer snapshot, when the
// scopes' byte bound is reached (SharedResourceCache.warmScope), or on stop(). MESHSCOPE_XDS_WARMUP=0 turns it off.
import type { EncodedResource } from '../envoy/encode';
import { type MeshSnapshot, optionsOf, type TranslateOptions } from '../model/mesh';
import { buildProxyTable } from '../pipeline/stages';
import type { SharedResourceCache } from '../pipeline/sharedResources';

export interface WarmupState {
  /** `off`: disabled; `warming`: running; `done`: every scope built or kept; `full`: stopped at the byte bound; `stopped`: cut short (a newer snapshot, a client, close). */
  state: 'off' | 'warming' | 'done' | 'full' | 'stopped';
  /** The snapshot version warmed. */
  version: number;
  /** Scope parts built. */
  scopes: number;
  /** Wall time from its start to its end (or so far). */
  ms: number;
  /**
   * The server is starting: its sources are loading, or loaded less than STARTUP_MS ago and no run has warmed a
   * whole snapshot yet, and no client was seen. Readiness waits for a `warming` run only then (api/debug.ts healthz).
   */
  startup: boolean;
}

/** How long after the sources loaded start-up may last (then changes are left to the pushes, and readiness to ADS). */
export const STARTUP_MS = 10_000;

/** Time one turn of the event loop spends on key-only steps (proxies of a scope already built) before yielding. */
const SLICE_MS = 10;

export const warmupFromEnv = (): boolean => process.env.MESHSCOPE_XDS_WARMUP !== '0';

export class ScopeWarmup {
  private run = 0;
  private t0 = 0;
  /** Past start-up: changes no longer start a run (changed()). */
  private closed = false;
  /** The plane closed (dispose): nothing starts again. */
  private disposed = false;
  /** When the sources loaded (undefined: still loading, loadingUntil); whether the run in progress started after that. */
  private loadedAt: number | undefined;
  private runAfterLoad = true;
  private current: WarmupState;
  private readonly waiters: Array<(s: WarmupState) => void> = [];

  constructor(
    private readonly cache: SharedResourceCache,
    private readonly snapshot: () => MeshSnapshot,
    private readonly options: TranslateOptions | undefined,
    private readonly enabled = warmupFromEnv(),
    private readonly now: () => number = () => performance.now(),
    /** Given each part built: the ADS server wraps its resources in their wire forms before a client asks. */
    private readonly prewrap?: (resources: Iterable<EncodedResource>) => void,
  ) {
    this.current = { state: 'off', version: snapshot().version, scopes: 0, ms: 0, startup: false };
    this.loadedAt = now();
  }

  state(): WarmupState {
    if (!this.closed && this.pastStartup()) this.closed = true;
    const s = { ...this.current, startup: !this.closed };
    return s.state === 'warming' ? { ...s, ms: this.now() - this.t0 } : s;
  }

  /** Resolves when the warm-up now running (if any) ends. */
  settled(): Promise<WarmupState> {
    if (this.current.state !== 'warming') return Promise.resolve(this.state());
    return new Promise((r) => this.waiters.push(r));
  }

  /** Starts warming the current snapshot (a run in progress is cut short). */
  start(): void {
    if (!this.enabled || this.disposed) return;
    const id = ++this.run;
    const snap = this.snapshot();
    const options = this.options ?? optionsOf(snap);
    // Started again on the same snapshot (sources loaded, nothing changed): its counts go on from where they were.
    const again = this.current.state !== 'off' && this.current.version === snap.version;
    if (!again) this.t0 = this.now();
    this.runAfterLoad = this.loadedAt !== undefined;
    this.current = {
      ...this.current,
      state: 'warming',
      version: snap.version,
      scopes: again ? this.current.scopes : 0,
      ms: this.now() - this.t0,
    };
    const proxies = snap.proxies;
    let i = 0;
    const step = () => {
      if (id !== this.run) return;
      if (this.snapshot() !== snap) return this.end('stopped');
      const until = this.now() + SLICE_MS;
      while (i < proxies.length) {
        const proxy = proxies[i++]!;
        const r = this.cache.warmScope(snap, proxy, options, () => buildProxyTable(snap, proxy, options, this.cache.memos), this.prewrap);
        if (r === 'full') return this.end('full');
        if (r === 'built') this.current.scopes++;
        if (r === 'built' || this.now() >= until) break;
      }
      if (i >= proxies.length) return this.end('done');
      this.current.ms = this.now() - this.t0;
      setImmediate(step);
    };
    setImmediate(step);
  }

  /**
   * A snapshot change (`connections`: ADS connections open now): warms the new snapshot while the server is still
   * starting (no run has ended `done` or `full`, no client was seen); else cuts a running warm-up short.
   */
  changed(connections: number): void {
    if (connections > 0 || this.pastStartup()) this.closed = true;
    if (this.closed) this.stop();
    else this.start();
  }

  /**
   * For a caller whose sources are still loading (the runtime: a kube source's first lists, files read in the
   * background): start-up lasts until a run that started after `loaded` settles has warmed a whole snapshot.
   */
  loadingUntil(loaded: Promise<unknown>, connections: () => number): void {
    this.loadedAt = undefined;
    void loaded.then(() => {
      this.loadedAt = this.now();
      this.changed(connections());
    });
  }

  /** Start-up ends STARTUP_MS after the sources loaded, whatever the runs did (a live cluster's churn cuts every run short). */
  private pastStartup(): boolean {
    return this.loadedAt !== undefined && this.now() - this.loadedAt > STARTUP_MS;
  }

  /** The plane is closing: a running warm-up is cut short and none starts again (a source settling later included). */
  dispose(): void {
    this.disposed = true;
    this.closed = true;
    this.stop();
  }

  /** Cuts a running warm-up short. */
  stop(): void {
    if (this.current.state !== 'warming') return;
    this.run++;
    this.end('stopped');
  }

  private end(state: WarmupState['state']): void {
    if ((state === 'done' || state === 'full') && this.runAfterLoad) this.closed = true;
    this.current = { ...this.current, state, ms: this.now() - this.t0 };
    const s = this.state();
    for (const w of this.waiters.splice(0)) w(s);
  }
}
