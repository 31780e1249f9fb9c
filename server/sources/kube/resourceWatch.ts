// One informer (list + watch) for one resource at one version, cluster-wide or in one namespace,
// kept alive for the life of the source:
// - 410 Gone (HTTP or in-stream ERROR event) and closed streams: client-node's ListWatch relists /
//   re-watches by itself; relist diffs turn vanished objects into `delete` callbacks.
// - any other failure stops client-node's informer for good: we restart the same ListWatch (it keeps
//   its cache and resourceVersion) after a capped exponential backoff.
// - stop() aborts everything in flight; the AbortError the informer reports then is ignored.
import { ListWatch, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { SourceSink, SourceStatus, RawObject } from '../types';
import { backoffDelay, scaleInformerDelay, sleep, type BackoffOptions } from './backoff';
import { describeError, getJson, KubeHttpError, statusMessage } from './http';
import { apiVersionOf, collectionPath, resourceKey, type WatchedResource } from './resources';

export type ResourceState = NonNullable<SourceStatus['resources']>[string];

export interface ResourceWatchOptions {
  sourceId: string;
  kc: KubeConfig;
  resource: WatchedResource;
  version: string;
  /** Watch only this namespace (namespaced kinds), or only this Namespace object (the Namespace kind). */
  namespace?: string;
  backoff: BackoffOptions;
  sink: SourceSink;
  /** Aborted by the source's stop(). */
  signal: AbortSignal;
  onState: () => void;
}

/** The object as the store gets it: apiVersion/kind filled in (lists omit them), managedFields dropped. */
export function normalizeObject(obj: KubernetesObject, apiVersion: string, kind: string): KubernetesObject {
  if (!obj.apiVersion) obj.apiVersion = apiVersion;
  if (!obj.kind) obj.kind = kind;
  if (obj.metadata && 'managedFields' in obj.metadata) delete obj.metadata.managedFields;
  return obj;
}

export class ResourceWatch {
  readonly key: string;
  private readonly informer: ListWatch<KubernetesObject>;
  private readonly apiVersion: string;
  private readonly listPath: string;
  private state: ResourceState = { state: 'resyncing', count: 0 };
  private failures = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private firstAttempt: Promise<void> | undefined;
  private settleFirst: (() => void) | undefined;

  constructor(private readonly o: ResourceWatchOptions) {
    const r = o.resource;
    this.apiVersion = apiVersionOf(r.group, o.version);
    const ns = r.namespaced ? o.namespace : undefined;
    this.listPath = collectionPath(r.group, o.version, r.plural, ns);
    this.key = o.namespace ? `${o.namespace}/${resourceKey(r)}` : resourceKey(r);
    const fieldSelector = r.only
      ? `metadata.name=${r.only.name}`
      : !r.namespaced && o.namespace
        ? `metadata.name=${o.namespace}`
        : undefined;
    const watch = new GuardedWatch(o.kc, this);
    this.informer = new ListWatch<KubernetesObject>(this.listPath, watch, () => this.list(fieldSelector), false, undefined, fieldSelector, {
      delayFn: (ms) => sleep(scaleInformerDelay(o.backoff, ms), o.signal),
    });
    this.informer.on('add', (obj) => this.upsert(obj));
    this.informer.on('update', (obj) => this.upsert(obj));
    this.informer.on('delete', (obj) => this.remove(obj));
    this.informer.on('error', (err: unknown) => this.failed(err));
  }

  get status(): ResourceState {
    return { ...this.state, count: this.informer.list().length };
  }

  /** Starts listing and watching. Resolves after the first attempt, successful or not. */
  start(): Promise<void> {
    this.firstAttempt ??= new Promise<void>((resolve) => {
      this.settleFirst = resolve;
    });
    this.track(this.informer.start().catch((err: unknown) => this.failed(err)));
    return this.firstAttempt;
  }

  async stop(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    await this.informer.stop();
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    this.state = { ...this.state, state: 'stopped' };
    this.settleFirst?.();
  }

  // --- called by GuardedWatch -------------------------------------------------------------

  get stopped(): boolean {
    return this.o.signal.aborted;
  }

  track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  watching(): void {
    this.failures = 0;
    this.setState({ state: 'connected', lastError: this.state.lastError });
    this.settleFirst?.();
  }

  normalize(obj: KubernetesObject): KubernetesObject {
    return normalizeObject(obj, this.apiVersion, this.o.resource.kind);
  }

  // --- internals ---------------------------------------------------------------------------

  private async list(fieldSelector: string | undefined): Promise<KubernetesListObject<KubernetesObject>> {
    this.setState({ state: 'resyncing', lastError: this.state.lastError });
    const query = fieldSelector ? `?fieldSelector=${encodeURIComponent(fieldSelector)}` : '';
    const res = await getJson(this.o.kc, this.listPath + query, this.o.signal);
    if (res.status !== 200) {
      const msg = statusMessage(res.body);
      throw new KubeHttpError(`list ${this.listPath}: HTTP ${res.status}${msg ? ` ${msg}` : ''}`, res.status);
    }
    const body = res.body as Partial<KubernetesListObject<KubernetesObject>> | undefined;
    const items = Array.isArray(body?.items) ? body.items : [];
    for (const item of items) this.normalize(item);
    return { ...body, items } as KubernetesListObject<KubernetesObject>;
  }

  private failed(err: unknown): void {
    if (this.stopped) return; // stop() aborts requests; the informer reports that as an error
    const where = err instanceof KubeHttpError ? '' : `watch ${this.listPath}: `;
    this.setState({ state: 'failing', lastError: where + describeError(err) });
    this.settleFirst?.();
    const delay = backoffDelay(this.o.backoff, this.failures++);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopped) return;
      this.track(this.informer.start().catch((e: unknown) => this.failed(e)));
    }, delay);
  }

  private upsert(obj: KubernetesObject): void {
    const md = obj.metadata;
    if (!md?.name) return;
    this.o.sink.upsert(this.o.sourceId, {
      object: obj as RawObject,
      origin: { source: 'kube', file: this.objectPath(md.name, md.namespace) },
    });
    this.o.onState();
  }

  private remove(obj: KubernetesObject): void {
    const md = obj.metadata;
    if (!md?.name) return;
    this.o.sink.remove(this.o.sourceId, {
      apiVersion: obj.apiVersion ?? this.apiVersion,
      kind: obj.kind ?? this.o.resource.kind,
      ...(md.namespace ? { namespace: md.namespace } : {}),
      name: md.name,
    });
    this.o.onState();
  }

  private objectPath(name: string, namespace: string | undefined): string {
    const r = this.o.resource;
    return `${collectionPath(r.group, this.o.version, r.plural, r.namespaced ? namespace : undefined)}/${name}`;
  }

  private setState(s: Omit<ResourceState, 'count'>): void {
    const next = { ...s, count: 0 };
    if (next.lastError === undefined) delete next.lastError;
    this.state = next;
    this.o.onState();
  }
}

/**
 * client-node's Watch, plus: no new watch once the source is stopping (the informer may still be
 * waiting out a re-watch delay when stop() comes), a stream that arrives after stop() is aborted,
 * watch-event objects are normalized like listed ones, and an established watch is reported.
 */
class GuardedWatch extends Watch {
  constructor(
    kc: KubeConfig,
    private readonly owner: ResourceWatch,
  ) {
    super(kc);
  }

  override async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    if (this.owner.stopped) {
      const c = new AbortController();
      c.abort();
      queueMicrotask(() => done(null));
      return c;
    }
    let finished = false;
    const onEvent = (phase: string, obj: unknown, raw?: unknown) => {
      if ((phase === 'ADDED' || phase === 'MODIFIED' || phase === 'DELETED') && obj && typeof obj === 'object') {
        this.owner.normalize(obj as KubernetesObject);
      }
      callback(phase, obj, raw);
    };
    const onDone = (err: unknown) => {
      finished = true;
      done(err);
    };
    const ctrl = await this.owner.track(super.watch(path, queryParams, onEvent, onDone));
    if (this.owner.stopped) ctrl.abort();
    else if (!finished) this.owner.watching();
    return ctrl;
  }
}
