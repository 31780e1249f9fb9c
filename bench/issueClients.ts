// The bench's ADS clients for issue 24: one per distinct pod, SotW or Delta, CDS→EDS and LDS→RDS as Envoy
// asks, every response ACKed as it arrives; a client whose stream the server dropped connects again on
// request (a fresh stream, the same handshake) and records when it is in sync again.
import { TYPE } from '../server/envoy/typeUrls';
import { type AdsTestClient, type DeltaTestStream, resourceName, type SotwTestStream } from '../server/xds/testing/adsTestClient';

export type Mode = 'sotw' | 'delta';

const utf8 = new TextDecoder();
/**
 * A resource's name read from its bytes: field 1 (`name` of a Cluster, Listener or RouteConfiguration,
 * `cluster_name` of a ClusterLoadAssignment) when it is encoded first, else the full decode. The bench's
 * 2,000 clients would otherwise decode every Cluster of every CDS response just to subscribe to EDS, CPU
 * taken from the server they measure on a 2-core machine.
 */
export function nameOf(any: { typeUrl: string; value: Uint8Array }): string {
  const v = any.value;
  if (v.length > 1 && v[0] === 0x0a) {
    let len = 0;
    let i = 1;
    for (let shift = 0; i < v.length && shift < 35; shift += 7) {
      const b = v[i++]!;
      len += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return i + len <= v.length ? utf8.decode(v.subarray(i, i + len)) : resourceName(any);
    }
  }
  return resourceName(any);
}
const wall = () => performance.timeOrigin + performance.now();

export interface Received {
  typeUrl: string;
  at: number;
}

export class BenchClient {
  readonly received: Received[] = [];
  /** When the first full config (CDS, EDS, LDS, RDS) was ACKed, per connect() (the last one last). */
  synced: number[] = [];
  dropped = false;
  /** Streams that ended before they were in sync (the server's stall guard, an overloaded machine): connected again. */
  retries = 0;
  private stream: SotwTestStream | DeltaTestStream | undefined;

  constructor(
    readonly proxy: string,
    readonly namespace: string,
    readonly mode: Mode,
    private readonly routes: readonly string[],
  ) {}

  /**
   * Opens a stream on `ch` and resolves once the four types were received and ACKed; a stream that ends
   * before that is opened again (as Envoy does), up to 5 times.
   */
  async connect(ch: AdsTestClient): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.connectOnce(ch);
      } catch (e) {
        if (attempt >= 5) throw e;
        this.retries++;
      }
    }
  }

  private connectOnce(ch: AdsTestClient): Promise<void> {
    const node = { id: `sidecar~10.0.0.1~${this.proxy}~${this.namespace}.svc.cluster.local` };
    const delta = this.mode === 'delta';
    const s = delta ? ch.delta(node) : ch.sotw(node);
    this.stream = s;
    this.dropped = false;
    const acked = new Set<string>();
    let done = false;
    return new Promise((resolve, reject) => {
      const loop = async () => {
        for (;;) {
          let r: Awaited<ReturnType<SotwTestStream['next']>> | Awaited<ReturnType<DeltaTestStream['next']>>;
          try {
            r = await s.next(600_000);
          } catch (e) {
            this.dropped = true;
            if (!done) reject(e);
            return;
          }
          this.received.push({ typeUrl: r.typeUrl, at: wall() });
          if (delta) (s as DeltaTestStream).ack(r as Awaited<ReturnType<DeltaTestStream['next']>>);
          else (s as SotwTestStream).ack(r as Awaited<ReturnType<SotwTestStream['next']>>);
          if (done) continue;
          const first = !acked.has(r.typeUrl);
          if (first && r.typeUrl === TYPE.cluster) {
            const names = delta
              ? (r as Awaited<ReturnType<DeltaTestStream['next']>>).resources.map((x) => x.name)
              : (r as Awaited<ReturnType<SotwTestStream['next']>>).resources.map(nameOf);
            const eds = names.filter((n) => n.startsWith('outbound|'));
            if (delta) (s as DeltaTestStream).send({ typeUrl: TYPE.endpoint, subscribe: eds });
            else (s as SotwTestStream).send({ typeUrl: TYPE.endpoint, resourceNames: eds });
          }
          if (first && r.typeUrl === TYPE.listener) {
            if (delta) (s as DeltaTestStream).send({ typeUrl: TYPE.route, subscribe: [...this.routes] });
            else (s as SotwTestStream).send({ typeUrl: TYPE.route, resourceNames: [...this.routes] });
          }
          acked.add(r.typeUrl);
          if (acked.size === 4) {
            done = true;
            this.synced.push(wall());
            resolve();
          }
        }
      };
      void loop();
      s.send({ typeUrl: TYPE.cluster });
      s.send({ typeUrl: TYPE.listener });
    });
  }

  close(): void {
    this.stream?.cancel();
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
