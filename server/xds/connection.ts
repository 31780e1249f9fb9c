// What SotW and Delta connections share: the request loop, client identity from the first request,
// subscriptions by type, per-type trackers, pushes in istiod's order, guarded writes with the
// response-size limit, status, and close handling. One instance per gRPC stream; nothing outlives it.
import type * as grpc from '@grpc/grpc-js';
import { status as grpcStatus } from '@grpc/grpc-js';
import type { Node } from '../gen/envoy/config/core/v3/base_pb';
import type { AnyCache } from './cache';
import type { SotwResponseCache } from './prepared';
import type { SliceScheduler } from './slices';
import type { AdsGenerator, ClientInfo, ConnectionStatus, ResourceSet, TypeUrl, WatchedNames } from './types';
import { TypeTracker } from './status';
import { parseNode } from './node';
import { XDS_TYPES, xdsTypeInfo } from '../model/xdsTypes';
import { TYPE } from '../envoy/typeUrls';
import { KNOWN_TYPES, nodeProblem, truncateText, type AdsLimits } from './limits';
import type { LogLimiter } from './logLimit';
import { resetStream } from './streamReset';
import type { ServerResponse } from './service';

/** What a connection needs from its server. */
export interface ConnectionContext {
  generator: AdsGenerator;
  anyCache: AnyCache;
  /** SotW responses shared across streams (prepared.ts). */
  sotwResponses: SotwResponseCache;
  log: (line: string) => void;
  /** NACK lines go through this rate limit. */
  nackLog: LogLimiter;
  limits: AdsLimits;
  controlPlane: string;
  now: () => Date;
  /** Generation slices shared by the server's connections (slices.ts). */
  slices: SliceScheduler;
  /** Called once, when the first request (with the node) identifies the client. */
  identified: (conn: AdsConnection) => void;
}

/** istiod's push order (pilot/pkg/xds/ads.go PushOrder): CDS, EDS, LDS, RDS, SDS, Address, Authorization, then the rest. */
export const PUSH_ORDER: readonly string[] = XDS_TYPES.map((t) => t.typeUrl);

export function orderTypes(types: Iterable<string>): string[] {
  const rank = (t: string) => {
    const i = PUSH_ORDER.indexOf(t);
    return i < 0 ? PUSH_ORDER.length : i;
  };
  return [...types].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** istiod GetShortType (pkg/model/xds.go): LDS, CDS, …, WDS, WADS; the message name for other types. */
export const shortType = (typeUrl: string): string => xdsTypeInfo(typeUrl)?.short ?? typeUrl.slice(typeUrl.lastIndexOf('/') + 1);

const NONE: ReadonlySet<string> = new Set();

/** Resolves when `p` settles or after `ms` (0: no deadline), whichever comes first. */
function untilDeadline(p: Promise<unknown>, ms: number): Promise<void> {
  if (!(ms > 0)) return p.then(() => undefined);
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
    void p.then(() => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** The common interface the server drives. */
export interface AdsConnection {
  readonly mode: 'sotw' | 'delta';
  readonly id: string;
  readonly client: ClientInfo | undefined;
  readonly closed: boolean;
  /** The registry proxy the generator matched this client to (node id or IP); undefined before or without one. */
  readonly registryProxy: string | undefined;
  /** Re-generates and sends what changed for the watched types (all when `types` is undefined). */
  push(types: ReadonlySet<TypeUrl> | undefined, reason: string): Promise<void>;
  status(): ConnectionStatus | undefined;
  close(): void;
}

/** What a stream's request message carries that the base handles. */
interface AdsRequest {
  node?: Node;
}

/** `Req`: the stream's request message; `W`: its per-type subscription state. */
export abstract class ConnectionBase<Req extends AdsRequest, W extends WatchedNames> {
  abstract readonly mode: 'sotw' | 'delta';
  id = '';
  client: ClientInfo | undefined;
  closed = false;
  readonly connectedAt: Date;
  protected nonceSeq = 0;
  protected trackers = new Map<string, TypeTracker>();
  /** The current subscriptions by type URL; handed to the generator (by-name generators need them). */
  protected readonly watches = new Map<string, W>();
  protected readonly ctx: ConnectionContext;
  protected readonly call: grpc.ServerDuplexStream<unknown, ServerResponse>;
  private onClose: Array<() => void> = [];
  private readonly connNumber: number;
  // Back-pressure: at most one batch of responses in flight. While one is, new responses are deferred
  // (per type, merged: the latest state is generated when the stream drains), and pushes return at once.
  private inFlight = 0;
  private pendingWrites = new Set<() => void>();
  private blockedAt: Date | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private deferred = new Map<string, { requested: boolean; justSubscribed: ReadonlySet<string> }>();
  private deferredCount = 0;
  /** A slice job will answer this stream's waiting requests (respond). */
  private answerQueued = false;
  /** How the generator matched this client to a proxy (node id, ip, node metadata), when it says. */
  private matchedBy: ResourceSet['matchedBy'];
  private matchedProxy: string | undefined;
  /** Unknown type URLs this stream asked for (each answered once, empty). */
  private readonly unknownTypes = new Set<string>();

  constructor(call: grpc.ServerDuplexStream<Req, ServerResponse>, ctx: ConnectionContext, connNumber: number) {
    this.call = call as grpc.ServerDuplexStream<unknown, ServerResponse>;
    this.ctx = ctx;
    this.connectedAt = ctx.now();
    this.connNumber = connNumber;
    const close = () => this.close();
    call.on('cancelled', close);
    call.on('error', close);
    call.on('close', close);
    call.on('end', () => {
      // The client half-closed: finish our side too.
      if (!this.closed) call.end();
      this.close();
    });
    call.on('data', (req: Req) => {
      try {
        if (this.closed || !this.identifyFrom(req)) return;
        this.onRequest(req);
      } catch (e) {
        ctx.log(`ADS: error handling ${this.requestLabel()} on ${this.id || call.getPeer()}: ${(e as Error).message}`);
      }
    });
  }

  get registryProxy(): string | undefined {
    return this.matchedProxy;
  }

  whenClosed(fn: () => void): void {
    if (this.closed) fn();
    else this.onClose.push(fn);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.deferred.clear();
    for (const done of [...this.pendingWrites]) done();
    this.pendingWrites.clear();
    const fns = this.onClose;
    this.onClose = [];
    for (const fn of fns) fn();
    if (!this.call.destroyed) {
      try {
        this.call.end();
      } catch {
        /* already finished */
      }
    }
  }

  /** Ends the stream with a gRPC error status. */
  fail(code: grpc.status, details: string): void {
    this.call.emit('error', { code, details });
  }

  /** Handles one request of an identified client. */
  abstract onRequest(req: Req): void;

  /**
   * Sends one watched type from `set` (this client's current resources). `requested`: answering a request
   * (sent even when unchanged); `justSubscribed`: names a Delta request just subscribed; `partialEds`: the batch
   * is a push without CDS (an endpoint push), so SotW may send only the changed CLAs (sotw.ts). Resolves when written.
   */
  protected abstract sendType(
    w: W,
    set: ResourceSet | undefined,
    requested: boolean,
    justSubscribed: ReadonlySet<string>,
    partialEds: boolean,
  ): Promise<void>;

  /** The empty response of this mode for `typeUrl` (an unknown type is answered with it once). */
  protected abstract emptyAnswer(typeUrl: string, nonce: string): Uint8Array;

  /** `SotW` / `Delta` (log lines). */
  protected abstract modeName(): string;

  /** The request message's name, for the missing-node error. */
  protected abstract requestName(): string;

  private requestLabel(): string {
    return this.mode === 'delta' ? 'delta request' : 'request';
  }

  /** The first request of a stream must carry the node: it identifies the client. False: the stream failed. */
  private identifyFrom(req: Req): boolean {
    if (this.client) return true;
    const problem = nodeProblem(req.node, this.ctx.limits);
    if (problem) {
      this.ctx.log(`ADS: refused ${this.modeName()} stream from ${this.call.getPeer()}: ${problem}`);
      this.fail(grpcStatus.INVALID_ARGUMENT, `${this.requestName()}: ${problem}`);
      return false;
    }
    this.identify(parseNode(req.node, this.call.getPeer()));
    return true;
  }

  private identify(client: ClientInfo): void {
    this.client = client;
    this.id = `${client.nodeId || client.peer}-${this.connNumber}`;
    this.ctx.log(
      `ADS: new ${this.modeName()} connection ${this.id} from ${client.peer} (proxy ${client.proxyId}, ${client.flavour}` +
        `${client.parseError ? `; ${client.parseError}` : ''})`,
    );
    this.ctx.identified(this as unknown as AdsConnection);
  }

  protected tracker(typeUrl: string): TypeTracker {
    let t = this.trackers.get(typeUrl);
    if (!t) {
      t = new TypeTracker(typeUrl);
      this.trackers.set(typeUrl, t);
    }
    return t;
  }

  protected nextNonce(): string {
    return `${++this.nonceSeq}`;
  }

  protected generate(): ResourceSet | undefined {
    if (!this.client) return undefined;
    try {
      const set = this.ctx.generator.generate(this.client, this.watches);
      if (set?.matchedBy) {
        this.matchedBy = set.matchedBy;
        this.matchedProxy = set.matchedProxy;
      }
      return set;
    } catch (e) {
      this.ctx.log(`ADS: generator failed for ${this.id}: ${(e as Error).message}`);
      return undefined;
    }
  }

  /**
   * Refuses responses over the limit: the client would kill the stream with RESOURCE_EXHAUSTED and loop
   * on reconnects. Logs it loudly and marks the type ERROR. Returns whether the response may be sent.
   */
  protected checkSize(typeUrl: string, size: number, count: number): boolean {
    const max = this.ctx.limits.maxResponseBytes;
    if (size <= max) return true;
    const msg = `${shortType(typeUrl)} response of ${size} bytes (${count} resources) exceeds maxResponseBytes ${max}; not sent`;
    this.ctx.log(`ADS: ERROR ${this.id}: ${msg}`);
    this.tracker(typeUrl).failed(msg, this.ctx.now());
    return false;
  }

  /** Writes one response (bytes, or written as grpc-js frames it); resolves when grpc-js took it (its callback) or the stream closed. */
  protected write(res: ServerResponse): Promise<void> {
    if (this.closed || this.call.destroyed || this.call.writableEnded) return Promise.resolve();
    const written = this.writeNow(res);
    this.ctx.slices.hold(res instanceof Uint8Array ? res.length : res.size, written);
    return written;
  }

  private writeNow(res: ServerResponse): Promise<void> {
    return new Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        this.pendingWrites.delete(finish);
        resolve();
      };
      this.pendingWrites.add(finish);
      this.began();
      try {
        this.call.write(res, () => {
          this.taken();
          finish();
        });
      } catch {
        this.taken();
        finish();
      }
    });
  }

  private began(): void {
    if (this.inFlight++ > 0) return;
    this.blockedAt = this.ctx.now();
    const ms = this.ctx.limits.stalledStreamCloseMs;
    if (ms > 0) {
      this.stallTimer = setTimeout(() => this.resetStalled(ms), ms);
      this.stallTimer.unref?.();
    }
  }

  private taken(): void {
    if (this.inFlight === 0 || --this.inFlight > 0) return;
    this.blockedAt = undefined;
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
    if (this.deferred.size > 0 && !this.closed) this.queueAnswer(false);
  }

  /** Flushes what is deferred in the server's next generation slice (once, however many ask); `soon`: ahead of first answers. */
  private queueAnswer(soon: boolean): void {
    if (this.answerQueued) return;
    this.answerQueued = true;
    this.ctx.slices.run(() => {
      this.answerQueued = false;
      this.flushDeferred();
    }, soon);
  }

  /** The client has not taken a response for `ms`: reset the stream (it reconnects and gets the full state). */
  private resetStalled(ms: number): void {
    if (this.closed || this.inFlight === 0) return;
    this.ctx.log(`ADS: ${this.id} has not read a response for ${ms} ms (${this.inFlight} pending): stream reset`);
    resetStream(this.call);
    this.close();
  }

  /** `justSubscribed` is kept as it is (callers never change a set they handed over); merging makes a new one. */
  private defer(typeUrl: string, requested: boolean, justSubscribed: ReadonlySet<string>): void {
    const d = this.deferred.get(typeUrl);
    if (!d) {
      this.deferred.set(typeUrl, { requested, justSubscribed });
      return;
    }
    d.requested ||= requested;
    if (justSubscribed.size === 0) return;
    const merged = new Set(d.justSubscribed);
    for (const n of justSubscribed) merged.add(n);
    d.justSubscribed = merged;
  }

  /** The stream drained: send what was deferred, generated from the latest state, in push order. */
  private flushDeferred(): void {
    if (this.closed || this.inFlight > 0 || this.deferred.size === 0) return;
    const d = this.deferred;
    this.deferred = new Map();
    const set = this.generate();
    const partialEds = !d.has(TYPE.cluster);
    for (const t of orderTypes(d.keys())) {
      const w = this.watches.get(t);
      const x = d.get(t)!;
      if (w) void this.sendType(w, set, x.requested, x.justSubscribed, partialEds);
    }
  }

  /**
   * Answers a request for `typeUrl` in the server's next generation slice (slices.ts), merged with the other
   * requests of this stream waiting for it (one generation, one batch in push order), or once the stream drained.
   */
  protected respond(typeUrl: string, requested: boolean, justSubscribed: ReadonlySet<string> = NONE): void {
    this.defer(typeUrl, requested, justSubscribed); // not counted in deferredCount: a request waiting for its slice
    // A stream that was already answered (its translation is ready) completes its config first.
    this.queueAnswer(this.nonceSeq > 0);
  }

  /**
   * Re-generates and sends what changed for the watched types (all when `types` is undefined), in push
   * order. A stream still holding an earlier response is skipped (the types are deferred until it drains);
   * otherwise the push waits for its writes at most `writeTimeoutMs`, so a slow reader never keeps a push slot.
   */
  push(types: ReadonlySet<TypeUrl> | undefined, _reason: string): Promise<void> {
    if (this.closed || !this.client) return Promise.resolve();
    // Generated in the server's next slice (slices.ts): a push to many connections never holds the loop.
    return new Promise<void>((resolve, reject) =>
      this.ctx.slices.run(() => {
        try {
          this.pushNow(types).then(resolve, reject);
        } catch (e) {
          reject(e); // the push queue reports it and frees the slot
        }
      }),
    );
  }

  private pushNow(types: ReadonlySet<TypeUrl> | undefined): Promise<void> {
    if (this.closed) return Promise.resolve();
    const list = orderTypes([...this.watches.keys()].filter((x) => !types || types.has(x as TypeUrl)));
    if (list.length === 0) return Promise.resolve();
    if (this.inFlight > 0 || this.answerQueued) {
      // Still holding a response, or a request's answer is about to be generated: merged with it.
      for (const t of list) {
        this.deferredCount++;
        this.defer(t, false, NONE);
      }
      return Promise.resolve();
    }
    const set = this.generate();
    if (!set) return Promise.resolve();
    // An endpoint push (types without CDS) may send EDS incrementally; a full push sends every CLA after CDS.
    const partialEds = types !== undefined && !types.has(TYPE.cluster);
    const writes = list.map((t) => this.sendType(this.watches.get(t)!, set, false, NONE, partialEds));
    return untilDeadline(Promise.all(writes), this.ctx.limits.writeTimeoutMs);
  }

  /**
   * Checks a request's type URL and names against the limits. False: the request is not processed further
   * (an unknown type is answered once, empty, then ignored; too many names end the stream).
   */
  protected admit(typeUrl: string, names: number): boolean {
    if (names > this.ctx.limits.maxResourceNames) {
      const msg = `${shortType(typeUrl)} request names ${names} resources; the limit is ${this.ctx.limits.maxResourceNames} (MESHSCOPE_XDS_MAX_RESOURCE_NAMES)`;
      this.ctx.log(`ADS: ${this.id}: ${msg}; stream ended`);
      this.fail(grpcStatus.RESOURCE_EXHAUSTED, msg);
      return false;
    }
    if (KNOWN_TYPES.has(typeUrl)) return true;
    if (this.unknownTypes.has(typeUrl) || this.unknownTypes.size >= this.ctx.limits.maxUnknownTypes) return false;
    this.unknownTypes.add(typeUrl);
    this.ctx.log(`ADS: ${this.id} asked for unknown type ${truncateText(typeUrl, 200)}: answered once, empty; later requests ignored`);
    void this.write(this.emptyAnswer(typeUrl, this.nextNonce()));
    return false;
  }

  /** Records a NACK (text cut to maxNackMessageChars) and logs it through the rate limit. */
  protected recordNack(typeUrl: string, nonce: string, code: number, message: string, detail: string): void {
    const text = truncateText(message, this.ctx.limits.maxNackMessageChars);
    this.tracker(typeUrl).nacked(nonce, code, text, this.ctx.now());
    this.ctx.nackLog.line(`ADS: NACK ${shortType(typeUrl)}${this.mode === 'delta' ? ' (delta)' : ''} from ${this.id} ${detail}: ${text}`);
  }

  status(): ConnectionStatus | undefined {
    if (!this.client) return undefined;
    const types = orderTypes(new Set([...this.watches.keys(), ...this.trackers.keys()])).map((t) => {
      const w = this.watches.get(t);
      const subscribed: string[] | '*' = !w ? [] : w.wildcard ? '*' : [...w.names].sort();
      return this.tracker(t).toStatus(subscribed);
    });
    let pushCount = 0;
    for (const t of this.trackers.values()) pushCount += t.pushCount;
    const out: ConnectionStatus = {
      id: this.id,
      mode: this.mode,
      client: this.client,
      connectedAt: this.connectedAt.toISOString(),
      pushCount,
      types,
    };
    if (this.blockedAt || this.deferredCount > 0) {
      out.backpressure = {
        blocked: this.inFlight > 0,
        deferredPushes: this.deferredCount,
        deferredTypes: orderTypes(this.deferred.keys()),
      };
      if (this.blockedAt) out.backpressure.blockedSince = this.blockedAt.toISOString();
    }
    if (this.unknownTypes.size > 0) out.unknownTypes = [...this.unknownTypes].sort();
    if (this.matchedBy) out.matchedBy = this.matchedBy;
    if (this.matchedProxy) out.matchedProxy = this.matchedProxy;
    return out;
  }
}
