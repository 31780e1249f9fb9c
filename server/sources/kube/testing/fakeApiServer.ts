// TEST-ONLY. A loopback HTTP server that speaks the Kubernetes API server's list/watch protocol well
// enough to exercise real informers: a global resourceVersion, LIST bodies, chunked watch streams
// (ADDED/MODIFIED/DELETED, BOOKMARK on request), 410 Gone (as HTTP status or in-stream ERROR event)
// after compact(), dropped streams, injected failures, stop()/restart on the same port, and API
// discovery with configurable served versions. Never imported by product code.
import { parse as parseYaml } from 'yaml';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_FAKE_RESOURCES, matchesSelectors, parseApiPath, resourceIndex, type FakeResource } from './fakeApiPaths';
import { FakePortForward } from './fakePortForward';
import { FakeAuth } from './fakeAuthApi';

export { DEFAULT_FAKE_RESOURCES, type FakeResource } from './fakeApiPaths';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> & { name: string; namespace?: string } };
type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';
interface StoredEvent {
  rv: number;
  type: EventType;
  object: Obj;
}
interface ActiveWatch {
  resKey: string;
  version: string;
  res: ServerResponse;
  namespace?: string;
  fieldSelector?: string;
  labelSelector?: string;
  bookmarks: boolean;
  /** Asked for the PartialObjectMetadata view (Accept `as=PartialObjectMetadata;g=meta.k8s.io;v=v1`). */
  metadataOnly: boolean;
}
interface Failure {
  status: number;
  remaining: number;
  path?: string | RegExp;
}
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  accept?: string;
}

/** The API server's metadata-only views: `application/json;as=PartialObjectMetadata(List);g=meta.k8s.io;v=v1`. */
const metadataView = (accept: string | undefined, as: string): boolean =>
  (accept ?? '').split(',').some((a) => a.includes(`as=${as};`) && a.includes('g=meta.k8s.io') && a.includes('v=v1'));

/** A PartialObjectMetadata: the object's metadata only. */
const partial = (o: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'meta.k8s.io/v1',
  kind: 'PartialObjectMetadata',
  metadata: o.metadata,
});

const BASE_TIME = Date.UTC(2026, 0, 1);

const goneStatus = (message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'Expired',
  code: 410,
});

export class FakeApiServer {
  private server: Server | undefined;
  private port = 0;
  private rv = 100;
  private compactedRv = 0;
  private goneMode: 'event' | 'http' = 'event';
  /** Kinds currently served. */
  private readonly resources = new Map<string, FakeResource>();
  /** Every kind ever added, served or not (objects of an uninstalled CRD can still be written). */
  private readonly known = new Map<string, FakeResource>();
  private readonly objects = new Map<string, Map<string, Obj>>();
  private readonly events = new Map<string, StoredEvent[]>();
  private readonly watches = new Set<ActiveWatch>();
  private readonly sockets = new Set<Socket>();
  private failures: Failure[] = [];
  private muted = false;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  /** pods/portforward (WebSocket, v4.channel.k8s.io), pods/proxy (503) and portforward RBAC denial (fakePortForward.ts). */
  readonly portForward = new FakePortForward(
    (ns, name) => this.objects.get(resourceIndex('', 'pods'))?.get(`${ns}/${name}`) as { status?: { phase?: string } } | undefined,
  );
  /** TokenReview, SubjectAccessReview and impersonated writes (fakeAuthApi.ts); tests set its tokens and grants. */
  readonly auth = new FakeAuth();

  constructor(resources: readonly FakeResource[] = DEFAULT_FAKE_RESOURCES) {
    for (const r of resources) this.addResource(r);
  }

  /** Listens on 127.0.0.1 (port 0 the first time, the same port after a stop()). */
  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) => this.handle(req, res));
    server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams.entries()) });
      if (!this.portForward.upgrade(req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    if (addr && typeof addr === 'object') this.port = addr.port;
    this.server = server;
  }

  /** Closes every connection and the listener: clients now get ECONNREFUSED. State is kept. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.watches.clear();
    this.portForward.closeAll();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  get activeWatchCount(): number {
    return this.watches.size;
  }

  // --- test controls -------------------------------------------------------------------------

  /** Serves a kind (or changes its served versions). */
  addResource(r: FakeResource): void {
    const key = resourceIndex(r.group, r.plural);
    this.resources.set(key, { ...r, versions: [...r.versions] });
    this.known.set(key, { ...r, versions: [...r.versions] });
    if (!this.objects.has(key)) this.objects.set(key, new Map());
    if (!this.events.has(key)) this.events.set(key, []);
  }

  /** Stops serving a kind (its CRD is uninstalled); its objects stay for a later addResource. */
  removeResource(group: string, plural: string): void {
    this.resources.delete(resourceIndex(group, plural));
  }

  create(obj: Record<string, unknown>): Obj {
    const { key, id, stored } = this.locate(obj);
    if (stored.has(id)) throw new Error(`fake apiserver: ${id} already exists`);
    return this.write(key, id, obj, 'ADDED');
  }

  update(obj: Record<string, unknown>): Obj {
    const { key, id, stored } = this.locate(obj);
    const old = stored.get(id);
    if (!old) throw new Error(`fake apiserver: ${id} not found`);
    const md = obj.metadata as Record<string, unknown>;
    return this.write(
      key,
      id,
      { ...obj, metadata: { ...md, uid: old.metadata.uid, creationTimestamp: old.metadata.creationTimestamp } },
      'MODIFIED',
    );
  }

  apply(obj: Record<string, unknown>): Obj {
    const { id, stored } = this.locate(obj);
    return stored.has(id) ? this.update(obj) : this.create(obj);
  }

  delete(ref: { apiVersion: string; kind: string; namespace?: string; name: string }): void {
    const { key, id, stored } = this.locate({
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      metadata: { name: ref.name, namespace: ref.namespace },
    });
    const old = stored.get(id);
    if (!old) throw new Error(`fake apiserver: ${id} not found`);
    stored.delete(id);
    const gone = structuredClone(old);
    gone.metadata.resourceVersion = String(++this.rv);
    this.record(key, 'DELETED', gone);
  }

  /**
   * Forgets the event history: watches from an older resourceVersion now get 410 Gone, either as a
   * 200 stream carrying an ERROR event (the real apiserver's usual form) or as an HTTP 410.
   */
  compact(mode: 'event' | 'http' = 'event'): void {
    this.compactedRv = this.rv;
    this.goneMode = mode;
    for (const list of this.events.values()) list.length = 0;
  }

  /**
   * What the apiserver does when a watcher falls too far behind: compacts, then sends every open
   * watch an in-stream `ERROR` event with a 410 Status and closes it.
   */
  expireWatches(): void {
    this.compact('event');
    for (const w of this.watches) {
      this.send(w, { type: 'ERROR', object: goneStatus(`too old resource version (${this.compactedRv})`) });
      w.res.end();
    }
    this.watches.clear();
  }

  /**
   * Runs `fn` without delivering its changes to open watches (they are still recorded in the event
   * history): a watcher that lagged behind. Combine with compact()/expireWatches() to make the
   * watcher miss them for good.
   */
  silently(fn: () => void): void {
    this.muted = true;
    try {
      fn();
    } finally {
      this.muted = false;
    }
  }

  /** Ends every open watch stream cleanly (what an apiserver restart or a load balancer does). */
  dropWatches(): void {
    for (const w of this.watches) w.res.end();
    this.watches.clear();
  }

  /** The next `count` requests (whose path contains / matches `path`, if given) fail with `status`. */
  failNext(status: number, opts: { count?: number; path?: string | RegExp } = {}): void {
    this.failures.push({ status, remaining: opts.count ?? 1, path: opts.path });
  }

  /** Sends a BOOKMARK with the current resourceVersion to watches that asked for bookmarks. */
  bookmark(): void {
    for (const w of this.watches) {
      if (!w.bookmarks) continue;
      const r = this.resources.get(w.resKey);
      if (!r) continue;
      const apiVersion = r.group ? `${r.group}/${w.version}` : w.version;
      this.send(w, { type: 'BOOKMARK', object: { kind: r.kind, apiVersion, metadata: { resourceVersion: String(this.rv) } } });
    }
  }

  // --- storage -------------------------------------------------------------------------------

  private locate(obj: Record<string, unknown>): { key: string; id: string; stored: Map<string, Obj> } {
    const apiVersion = String(obj.apiVersion ?? '');
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const kind = String(obj.kind ?? '');
    const all = [...this.known.values()].find((r) => r.group === group && r.kind === kind);
    if (!all) throw new Error(`fake apiserver: unknown kind ${apiVersion} ${kind}`);
    const key = resourceIndex(group, all.plural);
    const md = (obj.metadata ?? {}) as Record<string, unknown>;
    const ns = all.namespaced ? String(md.namespace ?? 'default') : '';
    const id = `${ns}/${String(md.name ?? '')}`;
    let stored = this.objects.get(key);
    if (!stored) this.objects.set(key, (stored = new Map()));
    return { key, id, stored };
  }

  private write(key: string, id: string, input: Record<string, unknown>, type: EventType): Obj {
    const obj = structuredClone(input) as Obj;
    const rv = ++this.rv;
    const [ns] = id.split('/');
    obj.metadata = {
      uid: `uid-${rv}`,
      creationTimestamp: new Date(BASE_TIME + rv * 1000).toISOString().replace('.000Z', 'Z'),
      ...obj.metadata,
      ...(ns ? { namespace: ns } : {}),
      resourceVersion: String(rv),
    };
    this.objects.get(key)?.set(id, obj);
    this.record(key, type, obj);
    return structuredClone(obj);
  }

  private record(key: string, type: EventType, object: Obj): void {
    this.events.get(key)?.push({ rv: Number(object.metadata.resourceVersion), type, object });
    if (this.muted) return;
    for (const w of this.watches) {
      if (w.resKey === key && this.visible(w, object)) this.sendEvent(w, type, object);
    }
  }

  private visible(w: Pick<ActiveWatch, 'namespace' | 'fieldSelector' | 'labelSelector'>, o: Obj): boolean {
    if (w.namespace && o.metadata.namespace !== w.namespace) return false;
    return matchesSelectors(o, w.fieldSelector, w.labelSelector);
  }

  private present(o: Obj, r: FakeResource, version: string, inList: boolean): Record<string, unknown> {
    const copy: Record<string, unknown> = structuredClone(o);
    const isCrd = r.group !== '' && r.group !== 'discovery.k8s.io';
    if (inList && !isCrd) {
      // Typed lists from the real apiserver carry no apiVersion/kind on their items.
      delete copy.apiVersion;
      delete copy.kind;
    } else {
      copy.apiVersion = r.group ? `${r.group}/${version}` : version;
      copy.kind = r.kind;
    }
    return copy;
  }

  // --- HTTP ----------------------------------------------------------------------------------

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams.entries());
    const accept = typeof req.headers.accept === 'string' ? req.headers.accept : undefined;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, ...(accept ? { accept } : {}) });
    const failure = this.failures.find((f) => f.remaining > 0 && this.pathMatches(f.path, url.pathname));
    if (failure) {
      failure.remaining--;
      this.failures = this.failures.filter((f) => f.remaining > 0);
      return this.status(res, failure.status, `injected failure ${failure.status}`);
    }
    if (this.auth.handle(req, res, url.pathname)) return;
    const proxied = this.portForward.proxyAnswer(url.pathname);
    if (proxied) {
      res.writeHead(proxied.code, { 'Content-Type': 'application/json' });
      return void res.end(proxied.body);
    }
    if (req.method === 'PATCH') return void this.serverSideApply(req, res, url.pathname, query);
    if (req.method !== 'GET') return this.status(res, 405, 'only GET and server-side apply (PATCH) are served');
    const parsed = parseApiPath(url.pathname, this.resources);
    switch (parsed.type) {
      case 'json':
        return this.json(res, 200, parsed.body);
      case 'notFound':
        return this.status(res, 404, 'the server could not find the requested resource');
      case 'resource': {
        const { resource: r, version, namespace, name } = parsed;
        const key = resourceIndex(r.group, r.plural);
        if (query.watch === 'true' || query.watch === '1') {
          return this.watch(res, key, r, version, namespace, query, metadataView(accept, 'PartialObjectMetadata'));
        }
        const stored = [...(this.objects.get(key)?.values() ?? [])];
        if (name) {
          const o = stored.find((x) => x.metadata.name === name && (!r.namespaced || x.metadata.namespace === namespace));
          return o ? this.json(res, 200, this.present(o, r, version, false)) : this.status(res, 404, `${r.plural} "${name}" not found`);
        }
        const sel = { namespace, fieldSelector: query.fieldSelector, labelSelector: query.labelSelector };
        const items = stored.filter((o) => this.visible(sel, o)).map((o) => this.present(o, r, version, true));
        if (metadataView(accept, 'PartialObjectMetadataList'))
          return this.json(res, 200, {
            apiVersion: 'meta.k8s.io/v1',
            kind: 'PartialObjectMetadataList',
            metadata: { resourceVersion: String(this.rv) },
            items: items.map(partial),
          });
        return this.json(res, 200, {
          apiVersion: r.group ? `${r.group}/${version}` : version,
          kind: `${r.kind}List`,
          metadata: { resourceVersion: String(this.rv) },
          items,
        });
      }
    }
  }

  /**
   * Server-side apply (PATCH application/apply-patch+yaml) of one named object: with `dryRun=All` the object
   * is answered and nothing is stored (Kubernetes' dry run); without, it is created or updated like apply().
   */
  private async serverSideApply(req: IncomingMessage, res: ServerResponse, pathname: string, query: Record<string, string>): Promise<void> {
    const parsed = parseApiPath(pathname, this.resources);
    if (parsed.type !== 'resource' || !parsed.name) return this.status(res, 404, 'the server could not find the requested resource');
    if (req.headers['content-type'] !== 'application/apply-patch+yaml')
      return this.status(res, 415, 'only server-side apply patches are served');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let obj: Record<string, unknown>;
    try {
      obj = parseYaml(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch (e) {
      return this.status(res, 400, `invalid patch: ${(e as Error).message}`);
    }
    const md = (obj.metadata ?? {}) as Record<string, unknown>;
    if (md.name !== parsed.name) return this.status(res, 400, 'metadata.name does not match the request path');
    const r = parsed.resource;
    const denied = this.auth.denyWrite(req, pathname, 'patch', r.plural, r.group, r.namespaced ? parsed.namespace : undefined, parsed.name);
    if (denied) return this.status(res, 403, denied, 'Forbidden');
    if (r.namespaced) obj = { ...obj, metadata: { ...md, namespace: parsed.namespace } };
    if (query.dryRun === 'All') return this.json(res, 200, obj);
    try {
      return this.json(res, 200, this.present(this.apply(obj), r, parsed.version, false));
    } catch (e) {
      return this.status(res, 422, (e as Error).message);
    }
  }

  private watch(
    res: ServerResponse,
    key: string,
    _r: FakeResource,
    version: string,
    namespace: string | undefined,
    q: Record<string, string>,
    metadataOnly = false,
  ): void {
    const from = q.resourceVersion ? Number(q.resourceVersion) : 0;
    if (from > 0 && from < this.compactedRv) {
      const message = `too old resource version: ${from} (${this.compactedRv})`;
      if (this.goneMode === 'http') return this.status(res, 410, message, 'Expired');
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      res.end(JSON.stringify({ type: 'ERROR', object: goneStatus(message) }) + '\n');
      return;
    }
    const w: ActiveWatch = {
      resKey: key,
      version,
      res,
      namespace,
      fieldSelector: q.fieldSelector,
      labelSelector: q.labelSelector,
      bookmarks: q.allowWatchBookmarks === 'true' || q.allowWatchBookmarks === '1',
      metadataOnly,
    };
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders(); // without it the client's fetch waits for headers forever
    if (from === 0) {
      // No resourceVersion: "start at most recent" with synthetic ADDED events for the current state.
      for (const o of this.objects.get(key)?.values() ?? []) if (this.visible(w, o)) this.sendEvent(w, 'ADDED', o);
    } else {
      for (const e of this.events.get(key) ?? []) if (e.rv > from && this.visible(w, e.object)) this.sendEvent(w, e.type, e.object);
    }
    this.watches.add(w);
    res.on('close', () => this.watches.delete(w));
    const timeout = Number(q.timeoutSeconds ?? 0);
    if (timeout > 0) {
      const t = setTimeout(() => {
        this.watches.delete(w);
        res.end();
      }, timeout * 1000);
      res.on('close', () => clearTimeout(t));
    }
  }

  private sendEvent(w: ActiveWatch, type: EventType, o: Obj): void {
    const r = this.resources.get(w.resKey);
    if (!r) return;
    const object = this.present(o, r, w.version, false);
    this.send(w, { type, object: w.metadataOnly ? partial(object) : object });
  }

  private send(w: ActiveWatch, event: unknown): void {
    if (!w.res.writableEnded) w.res.write(JSON.stringify(event) + '\n');
  }

  private pathMatches(p: string | RegExp | undefined, path: string): boolean {
    if (p === undefined) return true;
    return typeof p === 'string' ? path.includes(p) : p.test(path);
  }

  private json(res: ServerResponse, code: number, body: unknown): void {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private status(res: ServerResponse, code: number, message: string, reason?: string): void {
    const reasons: Record<number, string> = {
      404: 'NotFound',
      410: 'Expired',
      500: 'InternalError',
      503: 'ServiceUnavailable',
      403: 'Forbidden',
    };
    this.json(res, code, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: reason ?? reasons[code] ?? 'Unknown',
      code,
    });
  }
}
