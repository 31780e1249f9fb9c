// A raw ADS client for tests and benchmarks: @grpc/grpc-js + the generated protobuf-es schemas, no xDS
// logic of its own. It sends exactly the requests a test writes and queues every response it receives.
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, type JsonObject } from '@bufbuild/protobuf';
import { NodeSchema, type Node } from '../../gen/envoy/config/core/v3/base_pb';
import {
  DeltaDiscoveryRequestSchema,
  DiscoveryRequestSchema,
  type DeltaDiscoveryRequest,
  type DeltaDiscoveryResponse,
  type DiscoveryRequest,
  type DiscoveryResponse,
} from '../../gen/envoy/service/discovery/v3/discovery_pb';
import { envoyRegistry } from '../../gen/registry';
import { adsClientDefinition } from '../service';

export interface NodeInit {
  id: string;
  cluster?: string;
  metadata?: JsonObject;
}

/** A FIFO of received messages with awaitable `next()`. */
class Inbox<T> {
  private items: T[] = [];
  private waiters: Array<{ resolve: (v: T) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }> = [];
  private failure: Error | undefined;

  push(v: T): void {
    const w = this.waiters.shift();
    if (w) {
      clearTimeout(w.timer);
      w.resolve(v);
    } else this.items.push(v);
  }

  fail(e: Error): void {
    this.failure = e;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(e);
    }
  }

  next(timeoutMs: number): Promise<T> {
    const v = this.items.shift();
    if (v !== undefined) return Promise.resolve(v);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.timer !== timer);
        reject(new Error(`no message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push({ resolve, reject, timer });
    });
  }

  get buffered(): number {
    return this.items.length;
  }
}

type StreamEnd = { code: number; details: string };

abstract class TestStream<Req, Resp> {
  protected readonly call: grpc.ClientDuplexStream<Req, Resp>;
  protected readonly node: Node;
  protected nodeSent = false;
  private readonly inbox = new Inbox<Resp>();
  /** Resolves with the final status when the stream ends (OK or error). */
  readonly ended: Promise<StreamEnd>;

  constructor(call: grpc.ClientDuplexStream<Req, Resp>, node: Node) {
    this.call = call;
    this.node = node;
    call.on('data', (m: Resp) => this.inbox.push(m));
    this.ended = new Promise((resolve) => {
      call.on('status', (s: grpc.StatusObject) => {
        this.inbox.fail(new Error(`stream ended: ${s.code} ${s.details}`));
        resolve({ code: s.code, details: s.details });
      });
    });
    call.on('error', () => {
      /* reported through 'status' */
    });
  }

  /** The next response (rejects after `timeoutMs`, or when the stream ends). */
  next(timeoutMs = 5000): Promise<Resp> {
    return this.inbox.next(timeoutMs);
  }

  get buffered(): number {
    return this.inbox.buffered;
  }

  /** Half-closes the stream (the server ends its side). */
  end(): void {
    this.call.end();
  }

  cancel(): void {
    this.call.cancel();
  }
}

export interface SotwRequestInit {
  typeUrl: string;
  resourceNames?: string[];
  versionInfo?: string;
  responseNonce?: string;
  errorDetail?: { code: number; message: string };
}

export class SotwTestStream extends TestStream<DiscoveryRequest, DiscoveryResponse> {
  /** The names last requested per type (an ACK repeats them, as real clients do). */
  private lastNames = new Map<string, string[]>();

  send(init: SotwRequestInit): void {
    this.lastNames.set(init.typeUrl, init.resourceNames ?? []);
    const req = create(DiscoveryRequestSchema, {
      typeUrl: init.typeUrl,
      resourceNames: init.resourceNames ?? [],
      versionInfo: init.versionInfo ?? '',
      responseNonce: init.responseNonce ?? '',
      ...(init.errorDetail ? { errorDetail: { code: init.errorDetail.code, message: init.errorDetail.message } } : {}),
      ...(this.nodeSent ? {} : { node: this.node }),
    });
    this.nodeSent = true;
    this.call.write(req);
  }

  /** Sends a request and waits for the response to it. */
  async request(init: SotwRequestInit, timeoutMs?: number): Promise<DiscoveryResponse> {
    this.send(init);
    return this.next(timeoutMs);
  }

  /** ACKs `resp` (same nonce, its version) with the names last requested for its type, or a new list. */
  ack(resp: DiscoveryResponse, resourceNames: string[] = this.lastNames.get(resp.typeUrl) ?? []): void {
    this.send({ typeUrl: resp.typeUrl, resourceNames, versionInfo: resp.versionInfo, responseNonce: resp.nonce });
  }

  /** NACKs `resp`: same nonce, the last accepted version, and error_detail (code 14 as grpc-js-xds sends). */
  nack(
    resp: DiscoveryResponse,
    message: string,
    lastAccepted: string,
    resourceNames: string[] = this.lastNames.get(resp.typeUrl) ?? [],
  ): void {
    this.send({
      typeUrl: resp.typeUrl,
      resourceNames,
      versionInfo: lastAccepted,
      responseNonce: resp.nonce,
      errorDetail: { code: 14, message },
    });
  }
}

export interface DeltaRequestInit {
  typeUrl: string;
  subscribe?: string[];
  unsubscribe?: string[];
  initialResourceVersions?: Record<string, string>;
  responseNonce?: string;
  errorDetail?: { code: number; message: string };
}

export class DeltaTestStream extends TestStream<DeltaDiscoveryRequest, DeltaDiscoveryResponse> {
  send(init: DeltaRequestInit): void {
    const req = create(DeltaDiscoveryRequestSchema, {
      typeUrl: init.typeUrl,
      resourceNamesSubscribe: init.subscribe ?? [],
      resourceNamesUnsubscribe: init.unsubscribe ?? [],
      initialResourceVersions: init.initialResourceVersions ?? {},
      responseNonce: init.responseNonce ?? '',
      ...(init.errorDetail ? { errorDetail: { code: init.errorDetail.code, message: init.errorDetail.message } } : {}),
      ...(this.nodeSent ? {} : { node: this.node }),
    });
    this.nodeSent = true;
    this.call.write(req);
  }

  async request(init: DeltaRequestInit, timeoutMs?: number): Promise<DeltaDiscoveryResponse> {
    this.send(init);
    return this.next(timeoutMs);
  }

  ack(resp: DeltaDiscoveryResponse): void {
    this.send({ typeUrl: resp.typeUrl, responseNonce: resp.nonce });
  }
}

const GenericAdsClient = grpc.makeGenericClientConstructor(adsClientDefinition, 'AggregatedDiscoveryService');

export class AdsTestClient {
  private readonly client: grpc.Client;

  constructor(port: number, host = '127.0.0.1') {
    this.client = new GenericAdsClient(`${host}:${port}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
    });
  }

  sotw(node: NodeInit): SotwTestStream {
    const call = (
      this.client as unknown as { StreamAggregatedResources(): grpc.ClientDuplexStream<DiscoveryRequest, DiscoveryResponse> }
    ).StreamAggregatedResources();
    return new SotwTestStream(call, makeNode(node));
  }

  delta(node: NodeInit): DeltaTestStream {
    const call = (
      this.client as unknown as { DeltaAggregatedResources(): grpc.ClientDuplexStream<DeltaDiscoveryRequest, DeltaDiscoveryResponse> }
    ).DeltaAggregatedResources();
    return new DeltaTestStream(call, makeNode(node));
  }

  close(): void {
    this.client.close();
  }
}

export function makeNode(init: NodeInit): Node {
  return create(NodeSchema, { id: init.id, cluster: init.cluster ?? '', ...(init.metadata ? { metadata: init.metadata } : {}) });
}

/** Decodes the resource inside an Any of a response and returns its name (name or cluster_name). */
export function resourceName(any: { typeUrl: string; value: Uint8Array }): string {
  const desc = envoyRegistry.getMessage(any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1));
  if (!desc) throw new Error(`unknown type ${any.typeUrl}`);
  const msg = fromBinary(desc, any.value) as unknown as { name?: string; clusterName?: string };
  return msg.name ?? msg.clusterName ?? '';
}

/** Names of the resources in a SotW response, in order. */
export const namesOf = (resp: DiscoveryResponse): string[] => resp.resources.map(resourceName);
