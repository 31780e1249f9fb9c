// The Kubernetes source: informers for Namespaces, Services, Pods, EndpointSlices and Istio's
// networking CRs, pushing every change into the store. Istio kinds are discovered first (v1, else
// v1beta1, else v1alpha3); a kind the cluster does not serve is reported and looked for again later.
import { pushAll } from '../../model/schema/common';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Source, SourceSink, SourceStatus } from '../types';
import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffOptions } from './backoff';
import { discoverGroup, pickVersion } from './discovery';
import { describeError, getJson, statusMessage } from './http';
import { resolveKubeConfig } from './kubeConfig';
import { detectAmbient } from './ambientProbe';
import { ResourceWatch } from './resourceWatch';
import { collectionPath, METADATA_LIST_ACCEPT, resourceKey, SECRETS_RESOURCE, WATCHED_RESOURCES, type WatchedResource } from './resources';

export { RBAC_VERBS, WATCHED_RESOURCES, requiredRbacRules } from './resources';
export { AMBIENT_PROBES, AMBIENT_PROBE_VERBS } from './ambientProbe';

export interface KubeSourceOptions {
  kubeconfig?: string;
  context?: string;
  inCluster?: boolean;
  /** Restrict watches to these namespaces (one informer per namespace per kind). */
  namespaces?: string[];
  /** A ready KubeConfig (tests); skips kubeconfig resolution. */
  kubeConfig?: KubeConfig;
  /** Restart / rediscovery backoff. Default 1 s doubling to 30 s. */
  backoff?: { initialMs: number; maxMs: number };
}

interface MissingState {
  lastError: string;
}

/** How long a status that differs only in object counts may wait. */
const COUNT_STATUS_DELAY_MS = 250;

/** The status without object counts: what must be published without delay. */
function stateSignature(s: SourceStatus): string {
  const resources = Object.entries(s.resources ?? {}).map(([k, r]) => [k, r.state, r.lastError ?? '']);
  return JSON.stringify([s.state, s.detail ?? '', s.lastError ?? '', resources]);
}

export class KubeSource implements Source {
  private readonly backoff: BackoffOptions;
  private readonly namespaces: readonly string[] | undefined;
  private sink: SourceSink | undefined;
  private kc: KubeConfig | undefined;
  private from = '';
  private abort = new AbortController();
  private readonly watches = new Map<string, ResourceWatch>();
  /** Discovery-backed kinds not (yet) served, by resource key. */
  private readonly missing = new Map<string, MissingState>();
  private discoveryLoop: Promise<void> | undefined;
  /** Settles once the first discovery pass and the informers it started have made their first attempt. */
  private discoveryLoopFirstPass: Promise<void> = Promise.resolve();
  private statusQueued = false;
  private countTimer: ReturnType<typeof setTimeout> | undefined;
  private lastStateSignature = '';
  private lastStatusJson = '';
  private stopped = false;
  /** Why Secrets are not watched (no RBAC for them: the opt-in overlay is not applied), per scope. */
  private secretsNotWatched: string | undefined;

  constructor(
    readonly id: string,
    private readonly opts: KubeSourceOptions = {},
  ) {
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    const ns = opts.namespaces?.filter((n) => n.length > 0);
    this.namespaces = ns && ns.length > 0 ? [...new Set(ns)] : undefined;
  }

  /**
   * Resolves the kubeconfig (rejecting with a readable Error when there is none, or the context is
   * unknown), then starts every informer and resolves once each has made its first attempt. API
   * server failures never reject: they show in the status and are retried.
   */
  async start(sink: SourceSink): Promise<void> {
    this.sink = sink;
    this.stopped = false;
    this.abort = new AbortController();
    this.watches.clear();
    this.missing.clear();
    this.lastStatusJson = '';
    this.lastStateSignature = '';
    try {
      if (this.opts.kubeConfig) {
        this.kc = this.opts.kubeConfig;
        this.from = 'kubeconfig';
      } else {
        const r = resolveKubeConfig(this.opts);
        this.kc = r.kc;
        this.from = r.from;
      }
    } catch (err) {
      this.publish({ state: 'failing', lastError: describeError(err) });
      throw err;
    }
    const builtIn = WATCHED_RESOURCES.filter((r) => !r.discover);
    const first = builtIn.flatMap((r) => this.startWatches(r, r.versions[0] ?? 'v1'));
    first.push(this.startSecrets());
    const discovered = WATCHED_RESOURCES.filter((r) => r.discover);
    this.discoveryLoop = this.discover(discovered);
    first.push(this.discoveryLoopFirstPass);
    this.queueStatus();
    await Promise.all(first);
  }

  /** Whether the cluster runs istiod's ambient profile, and why (ambientProbe.ts); undefined before start or when not. */
  async detectAmbient(): Promise<string | undefined> {
    if (!this.kc || this.stopped) return undefined;
    return detectAmbient(this.kc, this.namespaces, this.abort.signal);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearCountTimer();
    this.abort.abort();
    await Promise.all([...this.watches.values()].map((w) => w.stop()));
    await this.discoveryLoop;
    this.statusQueued = false;
    this.publish({ state: 'stopped' });
    this.watches.clear();
  }

  /** Current status (also pushed to the sink whenever it changes). */
  status(): SourceStatus {
    return this.buildStatus();
  }

  // --- discovery of CRD-backed kinds -------------------------------------------------------

  private discover(kinds: readonly WatchedResource[]): Promise<void> {
    let markFirst: () => void = () => undefined;
    this.discoveryLoopFirstPass = new Promise<void>((resolve) => (markFirst = resolve));
    const run = async () => {
      let pending = [...kinds];
      for (let attempt = 0; pending.length > 0 && !this.abort.signal.aborted; attempt++) {
        const groups = [...new Set(pending.map((r) => r.group))];
        const starts: Promise<void>[] = [];
        for (const group of groups) {
          const inGroup = pending.filter((r) => r.group === group);
          try {
            const served = await discoverGroup(this.kcOrThrow(), group, this.abort.signal);
            for (const r of inGroup) {
              const version = pickVersion(r, served);
              if (!version) {
                const lastError = `${resourceKey(r)} is not served by the API server (CRD not installed?); retrying`;
                this.missing.set(resourceKey(r), { lastError });
                continue;
              }
              this.missing.delete(resourceKey(r));
              pending = pending.filter((p) => p !== r);
              pushAll(starts, this.startWatches(r, version));
            }
          } catch (err) {
            if (this.abort.signal.aborted) break;
            for (const r of inGroup) {
              this.missing.set(resourceKey(r), { lastError: `discovery: ${describeError(err)}` });
            }
          }
        }
        this.queueStatus();
        if (attempt === 0) void Promise.all(starts).then(markFirst);
        if (pending.length > 0) await sleep(backoffDelay(this.backoff, attempt), this.abort.signal);
      }
      if (this.abort.signal.aborted) markFirst(); // stopped before the first pass settled
    };
    return run();
  }

  private kcOrThrow(): KubeConfig {
    if (!this.kc) throw new Error('KubeSource not started');
    return this.kc;
  }

  // --- Secrets (metadata only, opt-in RBAC) ---------------------------------------------------

  /**
   * Secrets are watched, metadata only, where the RBAC allows it: one metadata-only list per scope decides.
   * 403 → not watched, said in the status detail (the opt-in overlay deploy/overlays/secrets grants it);
   * any other answer → watched (the informer reports and retries failures).
   */
  private async startSecrets(): Promise<void> {
    this.secretsNotWatched = undefined;
    const r = SECRETS_RESOURCE;
    const scopes: (string | undefined)[] = this.namespaces ? [...this.namespaces] : [undefined];
    const allowed: (string | undefined)[] = [];
    const denied: string[] = [];
    for (const ns of scopes) {
      const path = `${collectionPath(r.group, 'v1', r.plural, ns)}?limit=1&fieldSelector=${encodeURIComponent(r.fieldSelector ?? '')}`;
      try {
        const res = await getJson(this.kcOrThrow(), path, this.abort.signal, METADATA_LIST_ACCEPT);
        if (res.status === 403) denied.push(`${ns ?? 'all namespaces'}: ${statusMessage(res.body) ?? 'forbidden'}`);
        else allowed.push(ns);
      } catch {
        if (this.abort.signal.aborted) return;
        allowed.push(ns);
      }
    }
    if (denied.length > 0) this.secretsNotWatched = `Secrets not watched (RBAC; opt in with deploy/overlays/secrets): ${denied.join('; ')}`;
    this.queueStatus();
    await Promise.all(this.startWatches(r, 'v1', allowed));
  }

  // --- informers ----------------------------------------------------------------------------

  private startWatches(r: WatchedResource, version: string, only?: (string | undefined)[]): Promise<void>[] {
    if (this.stopped || !this.sink) return [];
    const scopes: (string | undefined)[] = only ?? (r.only ? [r.only.namespace] : this.namespaces ? [...this.namespaces] : [undefined]);
    return scopes.map((namespace) => {
      const w = new ResourceWatch({
        sourceId: this.id,
        kc: this.kcOrThrow(),
        resource: r,
        version,
        namespace,
        backoff: this.backoff,
        sink: this.sink as SourceSink,
        signal: this.abort.signal,
        onState: () => this.queueStatus(),
      });
      this.watches.set(w.key, w);
      return w.start();
    });
  }

  // --- status ---------------------------------------------------------------------------------

  /**
   * Publishes state changes at once (coalesced per microtask, so a whole list batch is one status);
   * changes of object counts alone wait up to COUNT_STATUS_DELAY_MS so a busy cluster does not
   * produce one status per watch event.
   */
  private queueStatus(): void {
    if (this.statusQueued || this.stopped) return;
    this.statusQueued = true;
    queueMicrotask(() => {
      this.statusQueued = false;
      if (this.stopped) return;
      const s = this.buildStatus();
      if (stateSignature(s) !== this.lastStateSignature) {
        this.clearCountTimer();
        this.publish(s);
      } else if (!this.countTimer) {
        this.countTimer = setTimeout(() => {
          this.countTimer = undefined;
          if (!this.stopped) this.publish(this.buildStatus());
        }, COUNT_STATUS_DELAY_MS);
        this.countTimer.unref?.();
      }
    });
  }

  private clearCountTimer(): void {
    if (this.countTimer) clearTimeout(this.countTimer);
    this.countTimer = undefined;
  }

  private buildStatus(): SourceStatus {
    const resources: NonNullable<SourceStatus['resources']> = {};
    for (const [key, w] of this.watches) resources[key] = w.status;
    for (const [key, m] of this.missing) {
      for (const scope of this.namespaces ?? [undefined]) {
        resources[scope ? `${scope}/${key}` : key] = { state: 'failing', lastError: m.lastError, count: 0 };
      }
    }
    const live = [...this.watches.values()].map((w) => w.status);
    let state: SourceStatus['state'] = 'connected';
    if (this.stopped) state = 'stopped';
    else if (live.some((s) => s.state === 'failing')) state = 'failing';
    else if (live.some((s) => s.state === 'resyncing')) state = 'resyncing';
    const server = this.kc?.getCurrentCluster()?.server ?? '';
    const missing = [...this.missing.keys()];
    const detailParts = [`${this.from}${server ? ` (${server})` : ''}`];
    if (this.namespaces) detailParts.push(`namespaces: ${this.namespaces.join(', ')}`);
    if (missing.length > 0) detailParts.push(`not served: ${missing.join(', ')}`);
    if (this.secretsNotWatched) detailParts.push(this.secretsNotWatched);
    const lastError = live.find((s) => s.state === 'failing')?.lastError ?? [...this.missing.values()][0]?.lastError;
    return {
      id: this.id,
      kind: 'kube',
      state,
      detail: detailParts.join('; '),
      ...(lastError ? { lastError } : {}),
      resources,
    };
  }

  private publish(partial: Partial<SourceStatus> & Pick<SourceStatus, 'state'>): void {
    const s: SourceStatus = { ...this.buildStatus(), ...partial };
    const json = JSON.stringify(s);
    if (json === this.lastStatusJson) return;
    this.lastStatusJson = json;
    this.lastStateSignature = stateSignature(s);
    this.sink?.status(s);
  }
}
