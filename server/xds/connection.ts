// What SotW and Delta connections share: the request loop, client identity from the first request,
// subscriptions by type, per-type trackers, pushes in istiod's order, guarded writes with the
// response-size limit, status, and close handling. One instance per gRPC stream; nothing outlives it.
import type * as grpc from '@grpc/grpc-js';
import { status as grpcStatus } from '@grpc/grpc-js';
import type { Node } from '../gen/envoy/config/core/v3/base_pb';
import type { AnyCache } from './cache';
import type { AdsGenerator, ClientInfo, ConnectionStatus, ResourceSet, TypeUrl, WatchedNames } from './types';
import { TypeTracker } from './status';
import { parseNode } from './node';
import { TYPE } from '../envoy/typeUrls';

/** What a connection needs from its server. */
export interface ConnectionContext {
  generator: AdsGenerator;
  anyCache: AnyCache;
  log: (line: string) => void;
  maxResponseBytes: number;
  controlPlane: string;
  now: () => Date;
  /** Called once, when the first request (with the node) identifies the client. */
  identified: (conn: AdsConnection) => void;
}

/** istiod's push order (pilot/pkg/xds/discovery.go PushOrder): CDS, EDS, LDS, RDS, SDS, then the rest. */
export const PUSH_ORDER: readonly string[] = [TYPE.cluster, TYPE.endpoint, TYPE.listener, TYPE.route, TYPE.secret];

export function orderTypes(types: Iterable<string>): string[] {
  const rank = (t: string) => {
    const i = PUSH_ORDER.indexOf(t);
    return i < 0 ? PUSH_ORDER.length : i;
  };
  return [...types].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export const shortType = (typeUrl: string): string => {
  switch (typeUrl) {
    case TYPE.listener:
      return 'LDS';
    case TYPE.cluster:
      return 'CDS';
    case TYPE.route:
      return 'RDS';
    case TYPE.endpoint:
      return 'EDS';
    case TYPE.secret:
      return 'SDS';
    default:
      return typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
  }
};

/** The common interface the server drives. */
export interface AdsConnection {
  readonly mode: 'sotw' | 'delta';
  readonly id: string;
  readonly client: ClientInfo | undefined;
  readonly closed: boolean;
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
  protected readonly call: grpc.ServerDuplexStream<unknown, Uint8Array>;
  private onClose: Array<() => void> = [];
  private readonly connNumber: number;

  constructor(call: grpc.ServerDuplexStream<Req, Uint8Array>, ctx: ConnectionContext, connNumber: number) {
    this.call = call as grpc.ServerDuplexStream<unknown, Uint8Array>;
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

  whenClosed(fn: () => void): void {
    if (this.closed) fn();
    else this.onClose.push(fn);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
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

  /** Sends what changed for one watched type after a push; `set` is this client's current resources. */
  protected abstract pushType(w: W, set: ResourceSet): Promise<void>;

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
    if (!req.node) {
      this.fail(grpcStatus.INVALID_ARGUMENT, `the first ${this.requestName()} of a stream must carry the node`);
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
      return this.ctx.generator.generate(this.client, this.watches);
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
    if (size <= this.ctx.maxResponseBytes) return true;
    const msg = `${shortType(typeUrl)} response of ${size} bytes (${count} resources) exceeds maxResponseBytes ${this.ctx.maxResponseBytes}; not sent`;
    this.ctx.log(`ADS: ERROR ${this.id}: ${msg}`);
    this.tracker(typeUrl).failed(msg, this.ctx.now());
    return false;
  }

  /** Writes one encoded response; resolves when grpc-js took it (or the stream closed). */
  protected write(bytes: Uint8Array): Promise<void> {
    if (this.closed || this.call.destroyed || this.call.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          resolve();
        }
      };
      this.whenClosed(finish);
      try {
        this.call.write(bytes, () => finish());
      } catch {
        finish();
      }
    });
  }

  /** Re-generates and sends what changed for the watched types (all when `types` is undefined), in push order. */
  async push(types: ReadonlySet<TypeUrl> | undefined, _reason: string): Promise<void> {
    if (this.closed || !this.client) return;
    const set = this.generate();
    if (!set) return;
    const writes: Promise<void>[] = [];
    for (const t of orderTypes([...this.watches.keys()].filter((x) => !types || types.has(x as TypeUrl)))) {
      const w = this.watches.get(t);
      if (w) writes.push(this.pushType(w, set));
    }
    await Promise.all(writes);
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
    return { id: this.id, mode: this.mode, client: this.client, connectedAt: this.connectedAt.toISOString(), pushCount, types };
  }
}
