// The bench's ADS clients for issue 24: one per distinct pod, SotW or Delta, CDS→EDS and LDS→RDS as Envoy
// asks, every response ACKed as it arrives; a client whose stream the server dropped connects again on
// request (a fresh stream, the same handshake) and records when it is in sync again.
// Each client reads of a response only what an xDS client must: of every response the type URL, version, nonce and
// resource count (bench/xdsHead.ts), of its first CDS response which clusters are
// EDS and their names, of its first LDS response the RDS names in the HttpConnectionManagers (bench/xdsWire.ts); it
// ACKs with a hand-encoded request; a deterministic sample is copied and, once the wave is over, decoded in full with
// protobuf-es and compared (bench/clientVerify.ts). Decoding everything with protobuf-es made the client process as busy as the server.
import { TYPE } from '../server/envoy/typeUrls';
import type { Verifier } from './clientVerify';
import type { RawAdsChannel, RawStream } from './rawAds';
import { readHead } from './xdsHead';
import {
  type EncodedNames,
  encodeDeltaRequest,
  encodeNode,
  encodeResourceNames,
  encodeSotwRequest,
  encodeEdsNames,
  rdsNames,
  readDeltaResponse,
  readSotwResponse,
} from './xdsWire';

export type Mode = 'sotw' | 'delta';

const wall = () => performance.timeOrigin + performance.now();
const NO_NAMES = encodeResourceNames([]);

export interface Received {
  typeUrl: string;
  at: number;
}

/** What a client received since the counters were last reset. */
export interface Counts {
  responses: number;
  resources: number;
  bytes: number;
}

export class BenchClient {
  readonly received: Received[] = [];
  /** When the first full config (CDS, EDS, LDS, RDS) was ACKed, per connect() (the last one last). */
  synced: number[] = [];
  dropped = false;
  /** Streams that ended before they were in sync (the server's stall guard, an overloaded machine): connected again. */
  retries = 0;
  traffic: Counts = { responses: 0, resources: 0, bytes: 0 };
  /** The RDS names read from this client's first LDS response (compared with `routes` by the caller). */
  rdsFromLds: string[] | undefined;
  private call: RawStream | undefined;
  /** Responses received over this client's life (the verification sample's index). */
  private count = 0;
  /** SotW: the last version ACKed per type (sent again on a reconnect, as Envoy does). */
  private readonly versions = new Map<string, string>();

  constructor(
    readonly proxy: string,
    readonly namespace: string,
    readonly mode: Mode,
    /** The route names the controller expects this pod's listeners to name (a check; the client subscribes to what LDS names). */
    readonly routes: readonly string[],
    /** This client's index in its process (the verification sample). */
    private readonly index: number,
    private verifier: Verifier,
  ) {}

  /** Why each channel this client replaced had failed (its session's error). */
  readonly reopened: string[] = [];

  /** Zeroes the traffic counters; `v` checks from now on. */
  resetTraffic(v: Verifier): void {
    this.traffic = { responses: 0, resources: 0, bytes: 0 };
    this.rdsFromLds = undefined;
    this.verifier = v;
  }

  /**
   * Opens a stream on `ch` and resolves once the four types were received and ACKed; a stream that ends
   * before that is opened again (as Envoy does), up to 5 times. A channel whose connection failed (refused or
   * reset under a burst of 2,000 connects) is replaced through `reopen`, after a short backoff, as Envoy reconnects.
   */
  async connect(ch: RawAdsChannel, reopen?: () => RawAdsChannel): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.connectOnce(ch);
      } catch (e) {
        if (attempt >= 5) throw e;
        this.retries++;
        if (!ch.usable && reopen) {
          this.reopened.push(ch.lastError ?? 'closed');
          await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
          ch = reopen();
        }
      }
    }
  }

  private connectOnce(ch: RawAdsChannel): Promise<void> {
    const delta = this.mode === 'delta';
    this.dropped = false;
    let call: RawStream;
    let node: Buffer | undefined = encodeNode(`sidecar~10.0.0.1~${this.proxy}~${this.namespace}.svc.cluster.local`);
    const take = () => {
      const n = node;
      node = undefined;
      return n;
    };
    /** SotW: the names last requested per type, encoded once (an ACK repeats them, as Envoy does). */
    const names = new Map<string, EncodedNames>();
    const request = (typeUrl: string, resourceNames: readonly string[] | EncodedNames = [], versionInfo = '', responseNonce = '') => {
      const n = take();
      if (delta)
        call.write(encodeDeltaRequest({ typeUrl, ...(n ? { node: n } : {}), subscribe: resourceNames, responseNonce, prefix: true }), true);
      else {
        const encoded = 'encoded' in resourceNames ? resourceNames : encodeResourceNames(resourceNames);
        names.set(typeUrl, encoded);
        call.write(
          encodeSotwRequest({ typeUrl, ...(n ? { node: n } : {}), resourceNames: encoded, versionInfo, responseNonce, prefix: true }),
          true,
        );
      }
    };
    /** The names subscribed per type on this stream, for the first response's count check. */
    const subscribed = new Map<string, number>();
    const acked = new Set<string>();
    let done = false;
    return new Promise((resolve, reject) => {
      const onMessage = (b: Buffer) => {
        // What every response needs (type URL, version, nonce, counts); the resources themselves are read only for
        // the first CDS and LDS responses below (and, after the wave, in the sample).
        const h = readHead(b, delta);
        const at = wall();
        const n = this.count++;
        this.traffic.responses++;
        this.traffic.resources += h.resources;
        this.traffic.bytes += b.length;
        this.received.push({ typeUrl: h.typeUrl, at });
        if (this.verifier.sampled(this.index, n)) this.verifier.keep(this.proxy, delta, b, h);
        // ACK: Delta names only the nonce; SotW repeats the names with the version it accepts.
        // (gRPC's prefix written with the request: the stream sends the bytes as they are)
        if (delta) call.write(encodeDeltaRequest({ typeUrl: h.typeUrl, responseNonce: h.nonce, prefix: true }), true);
        else {
          this.versions.set(h.typeUrl, h.version);
          call.write(
            encodeSotwRequest({
              typeUrl: h.typeUrl,
              resourceNames: names.get(h.typeUrl) ?? NO_NAMES,
              versionInfo: h.version,
              responseNonce: h.nonce,
              prefix: true,
            }),
            true,
          );
        }
        if (done) return;
        const first = !acked.has(h.typeUrl);
        const want = subscribed.get(h.typeUrl);
        if (first && want !== undefined && h.resources !== want)
          this.verifier.fail(`${this.proxy}: first ${h.typeUrl} response carries ${h.resources} of ${want} subscribed`);
        if (first && (h.typeUrl === TYPE.cluster || h.typeUrl === TYPE.listener)) {
          if (h.typeUrl === TYPE.cluster) {
            // the EDS clusters' names, copied from the response into the request (xdsWire.ts encodeEdsNames)
            const eds = encodeEdsNames(b, delta);
            subscribed.set(TYPE.endpoint, eds.count);
            request(TYPE.endpoint, eds, this.versions.get(TYPE.endpoint));
          } else {
            const r = delta ? readDeltaResponse(b) : readSotwResponse(b);
            const rds = [...new Set(r.resources.flatMap((x) => rdsNames(r.bytes, x.start, x.end)))].sort();
            this.rdsFromLds = rds;
            subscribed.set(TYPE.route, rds.length);
            request(TYPE.route, rds, this.versions.get(TYPE.route));
          }
        }
        acked.add(h.typeUrl);
        if (acked.size === 4) {
          done = true;
          this.synced.push(wall());
          resolve();
        }
      };
      call = ch.open(delta, onMessage, (status) => {
        this.dropped = true;
        if (!done) reject(new Error(`stream ended: ${status}`));
      });
      this.call = call;
      request(TYPE.cluster, [], this.versions.get(TYPE.cluster));
      request(TYPE.listener, [], this.versions.get(TYPE.listener));
    });
  }

  close(): void {
    this.call?.cancel();
  }
}

/** Waits until `cond()` holds (polling), false after `timeoutMs`. */
export async function waitUntil(cond: () => boolean, timeoutMs: number, pollMs = 2): Promise<boolean> {
  const end = wall() + timeoutMs;
  while (!cond()) {
    if (wall() > end) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return true;
}

export { wall };
