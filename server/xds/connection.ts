// What SotW and Delta connections share: client identity, per-type trackers, guarded writes with the
// response-size limit, and close handling. One instance per gRPC stream; nothing outlives the stream.
import type * as grpc from '@grpc/grpc-js';
import type { AnyCache } from './cache';
import type { AdsGenerator, ClientInfo, ConnectionStatus, ResourceSet, TypeStatus, TypeUrl, Watches } from './types';
import { TypeTracker } from './status';
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
    case TYPE.listener: return 'LDS';
    case TYPE.cluster: return 'CDS';
    case TYPE.route: return 'RDS';
    case TYPE.endpoint: return 'EDS';
    case TYPE.secret: return 'SDS';
    default: return typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
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

export abstract class ConnectionBase {
  id = '';
  client: ClientInfo | undefined;
  closed = false;
  readonly connectedAt: Date;
  protected nonceSeq = 0;
  protected trackers = new Map<string, TypeTracker>();
  protected readonly ctx: ConnectionContext;
  protected readonly call: grpc.ServerDuplexStream<unknown, Uint8Array>;
  private onClose: Array<() => void> = [];
  private readonly connNumber: number;

  constructor(call: grpc.ServerDuplexStream<unknown, Uint8Array>, ctx: ConnectionContext, connNumber: number) {
    this.call = call;
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

  protected identify(client: ClientInfo): void {
    this.client = client;
    this.id = `${client.nodeId || client.peer}-${this.connNumber}`;
    this.ctx.log(
      `ADS: new ${this.modeName()} connection ${this.id} from ${client.peer} (proxy ${client.proxyId}, ${client.flavour}` +
        `${client.parseError ? `; ${client.parseError}` : ''})`,
    );
    this.ctx.identified(this as unknown as AdsConnection);
  }

  protected abstract modeName(): string;

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

  /** The current subscriptions, handed to the generator (by-name generators need them). */
  protected abstract watched(): Watches;

  protected generate(): ResourceSet | undefined {
    if (!this.client) return undefined;
    try {
      return this.ctx.generator.generate(this.client, this.watched());
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

  protected baseStatus(mode: 'sotw' | 'delta', types: TypeStatus[]): ConnectionStatus | undefined {
    if (!this.client) return undefined;
    let pushCount = 0;
    for (const t of this.trackers.values()) pushCount += t.pushCount;
    return { id: this.id, mode, client: this.client, connectedAt: this.connectedAt.toISOString(), pushCount, types };
  }
}
