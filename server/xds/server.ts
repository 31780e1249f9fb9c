// The ADS server: envoy.service.discovery.v3.AggregatedDiscoveryService (SotW + Delta) on @grpc/grpc-js,
// with debounced, merged, concurrency-limited pushes and per-connection sync status.
import * as grpc from '@grpc/grpc-js';
import type { DeltaDiscoveryRequest, DiscoveryRequest } from '../gen/envoy/service/discovery/v3/discovery_pb';
import type { EncodedResource } from '../envoy/encode';
import { AnyCache } from './cache';
import { SotwResponseCache } from './prepared';
import { SliceScheduler } from './slices';
import type { AdsConnection, ConnectionContext } from './connection';
import { Debouncer, mergePushRequests } from './debounce';
import { DeltaConnection } from './delta';
import { DEFAULT_LIMITS, type AdsLimits } from './limits';
import { type Listening, listenGrpc, type PendingListen } from './listen';
import { LogLimiter } from './logLimit';
import { PushQueue } from './pushQueue';
import { adsServerDefinition, type ServerResponse } from './service';
import { SotwConnection } from './sotw';
import { syncStatusOf } from './status';
import type { AdsGenerator, ConnectionStatus, PushRequest, SyncStatus, TypeUrl } from './types';

export * from './types';

export interface AdsServerOptions {
  generator: AdsGenerator;
  log?: (line: string) => void;
  /** Largest response sent to a client (grpc's default receive limit): 4 MiB. Same as limits.maxResponseBytes. */
  maxResponseBytes?: number;
  /** Request, node, name, NACK and back-pressure limits (limits.ts DEFAULT_LIMITS for the rest). */
  limits?: Partial<AdsLimits>;
  /** NACK log lines: burst and lines per second (default 20 and 2). */
  nackLogRate?: { burst: number; perSecond: number };
  /** istiod PILOT_DEBOUNCE_AFTER: 100 ms. */
  debounceMs?: number;
  /** istiod PILOT_DEBOUNCE_MAX: 10 s. */
  maxDebounceMs?: number;
  /** istiod PILOT_PUSH_THROTTLE: connections pushed at once (default 100). */
  pushConcurrency?: number;
  /** control_plane.identifier in responses. */
  controlPlane?: string;
  /** Called after a connection closed and was forgotten (the plane frees what its proxy owned). */
  onClosed?: (conn: AdsConnection) => void;
}

interface PushJob {
  types?: Set<TypeUrl>;
  reason: string;
}

const mergeJobs = (a: PushJob, b: PushJob): PushJob => {
  const out: PushJob = { reason: a.reason === b.reason ? a.reason : `${a.reason}, ${b.reason}`.slice(0, 500) };
  if (a.types && b.types) out.types = new Set([...a.types, ...b.types]);
  return out;
};

export class AdsServer {
  private server: grpc.Server | undefined;
  /** Its listening socket (listen.ts), and a listen still in progress. */
  private listening: Listening | undefined;
  private starting: PendingListen | undefined;
  private readonly conns = new Set<AdsConnection>();
  private readonly debouncer: Debouncer<PushRequest>;
  private readonly queue: PushQueue<AdsConnection, PushJob>;
  private readonly ctx: ConnectionContext;
  private connCounter = 0;
  private readonly log: (line: string) => void;
  private readonly onClosed: ((conn: AdsConnection) => void) | undefined;
  readonly limits: Readonly<AdsLimits>;

  constructor(opts: AdsServerOptions) {
    this.log = opts.log ?? (() => {});
    this.onClosed = opts.onClosed;
    this.limits = {
      ...DEFAULT_LIMITS,
      ...(opts.maxResponseBytes ? { maxResponseBytes: opts.maxResponseBytes } : {}),
      ...opts.limits,
    };
    const rate = opts.nackLogRate ?? { burst: 20, perSecond: 2 };
    const anyCache = new AnyCache();
    this.ctx = {
      generator: opts.generator,
      anyCache,
      sotwResponses: new SotwResponseCache(anyCache),
      slices: new SliceScheduler({
        maxBytes: this.limits.maxPendingSendBytes,
        holdMs: this.limits.writeTimeoutMs,
        onError: (e) => this.log(`ADS: error generating a response: ${(e as Error).message}`),
      }),
      log: this.log,
      nackLog: new LogLimiter(this.log, 'NACK', { ...rate, maxChars: 600 }),
      limits: this.limits,
      controlPlane: opts.controlPlane ?? '{"Component":"meshscope"}',
      now: () => new Date(),
      identified: () => {},
    };
    this.debouncer = new Debouncer<PushRequest>({
      quietMs: opts.debounceMs ?? 100,
      maxMs: opts.maxDebounceMs ?? 10_000,
      merge: mergePushRequests,
      flush: (req) => this.dispatch(req),
    });
    this.queue = new PushQueue<AdsConnection, PushJob>({
      concurrency: opts.pushConcurrency ?? 100,
      merge: mergeJobs,
      run: (conn, job) => conn.push(job.types, job.reason),
      onError: (conn, err) => this.log(`ADS: push to ${conn.id} failed: ${(err as Error).message}`),
    });
  }

  /** Binds (port 0 = ephemeral) and returns the bound port. */
  start(port: number, host = '0.0.0.0'): Promise<number> {
    if (this.server) return Promise.reject(new Error('AdsServer already started'));
    const server = new grpc.Server({ 'grpc.max_receive_message_length': this.limits.maxRequestBytes });
    server.addService(adsServerDefinition(), {
      StreamAggregatedResources: (call: grpc.ServerDuplexStream<DiscoveryRequest, ServerResponse>) =>
        this.track(new SotwConnection(call, this.ctx, ++this.connCounter)),
      DeltaAggregatedResources: (call: grpc.ServerDuplexStream<DeltaDiscoveryRequest, ServerResponse>) =>
        this.track(new DeltaConnection(call, this.ctx, ++this.connCounter)),
    });
    this.server = server;
    const pending = listenGrpc(server, host, port, this.log);
    this.starting = pending;
    return pending.then(
      (l) => {
        if (this.starting === pending) this.starting = undefined;
        if (this.server !== server) {
          // stop() came first: nothing may keep listening for a server that was shut down.
          l.close();
          throw new Error('AdsServer stopped while it was starting');
        }
        this.listening = l;
        return l.port;
      },
      (e: unknown) => {
        if (this.starting === pending) this.starting = undefined;
        // Only this start's server: a later start may have replaced it meanwhile.
        if (this.server === server) this.server = undefined;
        server.forceShutdown();
        throw e;
      },
    );
  }

  /** Stops at once (forceShutdown: grpc-js-xds clients keep streams open forever). */
  async stop(): Promise<void> {
    this.debouncer.stop();
    this.ctx.nackLog.report();
    for (const c of [...this.conns]) c.close();
    this.conns.clear();
    this.starting?.cancel();
    this.starting = undefined;
    this.listening?.close();
    this.listening = undefined;
    this.server?.forceShutdown();
    this.server = undefined;
  }

  /** Requests a push: debounced and merged with other requests, then queued per connection. */
  push(req: PushRequest): void {
    this.debouncer.add(req);
  }

  /**
   * Requests a push that its caller already debounced (the store's snapshots: istiod debounces config events
   * once, PILOT_DEBOUNCE_AFTER): merged with anything pending and dispatched now, not debounced again.
   */
  pushNow(req: PushRequest): void {
    this.debouncer.add(req);
    this.debouncer.flushNow();
  }

  /** Releases any debounced push now and resolves when every queued push was written. */
  async flush(): Promise<void> {
    this.debouncer.flushNow();
    await this.queue.idle();
  }

  connections(): ConnectionStatus[] {
    const out: ConnectionStatus[] = [];
    for (const c of this.conns) {
      const s = c.status();
      if (s) out.push(s);
    }
    return out.sort((a, b) => a.id.localeCompare(b.id));
  }

  /** istiod's /debug/syncz: one SyncStatus per connected proxy. */
  syncz(): SyncStatus[] {
    return this.connections().map(syncStatusOf);
  }

  /** Wraps resources in their wire forms ahead of the streams that will send them (AnyCache.prewrap). */
  prewrap(resources: Iterable<EncodedResource>): void {
    this.ctx.anyCache.prewrap(resources);
  }

  /** Internal sizes, for leak checks. */
  stats(): {
    connections: number;
    queued: number;
    running: number;
    pending: number;
    debouncing: boolean;
    anyCache: number;
    /** Delta first responses taken from one an earlier stream made (deltaFresh.ts). */
    deltaFirstReused: number;
  } {
    return {
      connections: this.conns.size,
      ...this.queue.stats(),
      debouncing: this.debouncer.pending,
      anyCache: this.ctx.anyCache.size,
      deltaFirstReused: this.ctx.anyCache.deltaFresh.reused,
    };
  }

  private track(conn: SotwConnection | DeltaConnection): void {
    this.conns.add(conn);
    conn.whenClosed(() => {
      this.conns.delete(conn);
      this.queue.remove(conn);
      if (conn.client) this.log(`ADS: ${conn.mode === 'sotw' ? 'SotW' : 'Delta'} connection ${conn.id} closed`);
      this.onClosed?.(conn);
    });
  }

  /** Registry proxies (ids) some open connection is matched to. */
  connectedProxies(): Set<string> {
    const out = new Set<string>();
    for (const c of this.conns) if (!c.closed && c.registryProxy !== undefined) out.add(c.registryProxy);
    return out;
  }

  private dispatch(req: PushRequest): void {
    const job: PushJob = { reason: req.reason };
    if (req.types) job.types = new Set(req.types);
    for (const c of this.conns) {
      if (!c.client || c.closed) continue;
      if (req.proxies !== undefined && req.proxies !== 'all') {
        const reg = c.registryProxy;
        const named = req.proxies.has(c.client.proxyId) || req.proxies.has(c.client.nodeId) || (reg !== undefined && req.proxies.has(reg));
        if (!named && !(req.unmatched && reg === undefined)) continue;
      }
      this.queue.enqueue(c, job);
    }
  }
}
