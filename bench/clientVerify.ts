// The bench clients' check on their own wire reading (bench/xdsWire.ts): a deterministic sample of responses is
// decoded in full with protobuf-es (the response, every resource in it, for LDS each HttpConnectionManager) and
// compared with what the client read — type URL, version, nonce, resource count, names, Delta versions, which
// clusters are EDS, the RDS names —, and each client's first EDS / RDS response must carry every name it
// subscribed to. The sample is copied as it arrives and checked once the wave is over (`keep`, `checkKept`). Mismatches are counted and the first few kept; clientProc.ts reports them with the traffic.
import { fromBinary, type Message } from '@bufbuild/protobuf';
import { type Any, anyUnpack } from '@bufbuild/protobuf/wkt';
import { EXT, TYPE } from '../server/envoy/typeUrls';
import type { Cluster } from '../server/gen/envoy/config/cluster/v3/cluster_pb';
import type { FilterChain } from '../server/gen/envoy/config/listener/v3/listener_components_pb';
import type { Listener } from '../server/gen/envoy/config/listener/v3/listener_pb';
import type { HttpConnectionManager } from '../server/gen/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager_pb';
import { DeltaDiscoveryResponseSchema, DiscoveryResponseSchema } from '../server/gen/envoy/service/discovery/v3/discovery_pb';
import { envoyRegistry } from '../server/gen/registry';
import type { WireHead } from './xdsHead';
import { isEdsCluster, rdsNames, readDeltaResponse, readSotwResponse, type WireResponse } from './xdsWire';

/** Every Nth response (by client and response index, so the same ones each run) plus every response of the first few clients. */
export const VERIFY_EVERY = Math.max(1, Number(process.env.BENCH_CLIENT_VERIFY_EVERY ?? 100));
export const VERIFY_CLIENTS = 3;

export class Verifier {
  verified = 0;
  mismatches = 0;
  readonly first: string[] = [];
  /** Sampled responses copied as they arrived, with the head the client read of each, for `checkKept`. */
  private kept: Array<{ who: string; delta: boolean; bytes: Buffer; head: WireHead }> = [];

  /** Whether client `client` (its index in the process) checks its `n`-th response in full. */
  sampled(client: number, n: number): boolean {
    return client < VERIFY_CLIENTS || (client * 7 + n) % VERIFY_EVERY === 0;
  }

  fail(what: string): void {
    this.mismatches++;
    if (this.first.length < 5) this.first.push(what);
  }

  /**
   * Keeps a copy of a sampled response and the head the client read of it, to be
   * checked by `checkKept` once the wave is over: the check is the same, it only runs after the clients are in sync,
   * so its ~13 % of the client process's main thread (and its garbage) is not taken from the server during a 5× wave.
   */
  keep(who: string, delta: boolean, bytes: Uint8Array, head: WireHead): void {
    this.kept.push({ who, delta, bytes: Buffer.from(bytes), head });
  }

  /** Checks every kept response (`check`: the wire reading of the whole response and the client's head against protobuf-es). */
  checkKept(): void {
    const kept = this.kept;
    this.kept = [];
    for (const k of kept) this.check(k.who, k.delta, k.bytes, k.delta ? readDeltaResponse(k.bytes) : readSotwResponse(k.bytes), k.head);
  }

  /**
   * Decodes `bytes` in full and compares it with `seen` (the wire reading of it: bench/xdsWire.ts) and, when given, with
   * `head` (what the client read of it as it arrived: bench/xdsHead.ts).
   */
  check(who: string, delta: boolean, bytes: Uint8Array, seen: WireResponse, head?: WireHead): void {
    this.verified++;
    const bad = (what: string) => this.fail(`${who} ${seen.typeUrl.slice(seen.typeUrl.lastIndexOf('.') + 1)}: ${what}`);
    let typeUrl: string;
    let version: string;
    let nonce: string;
    let resources: Array<{ name: string; version?: string; any?: Any }>;
    let removed = 0;
    try {
      if (delta) {
        const m = fromBinary(DeltaDiscoveryResponseSchema, bytes);
        ({ typeUrl, nonce } = m);
        version = m.systemVersionInfo;
        resources = m.resources.map((r) => ({ name: r.name, version: r.version, ...(r.resource ? { any: r.resource } : {}) }));
        if (m.removedResources.join('\n') !== seen.removed.join('\n')) bad('removed_resources differ');
        removed = m.removedResources.length;
      } else {
        const m = fromBinary(DiscoveryResponseSchema, bytes);
        ({ typeUrl, versionInfo: version, nonce } = m);
        resources = m.resources.map((any) => ({ name: '', any }));
      }
    } catch (e) {
      bad(`does not decode: ${(e as Error).message}`);
      return;
    }
    if (typeUrl !== seen.typeUrl || version !== seen.version || nonce !== seen.nonce) bad('type URL, version or nonce differ');
    if (
      head &&
      (typeUrl !== head.typeUrl ||
        version !== head.version ||
        nonce !== head.nonce ||
        resources.length !== head.resources ||
        removed !== head.removed)
    )
      bad("the head's type URL, version, nonce or counts differ");
    if (resources.length !== seen.resources.length) {
      bad(`${resources.length} resources decoded, ${seen.resources.length} read`);
      return;
    }
    resources.forEach((r, i) => {
      const w = seen.resources[i]!;
      let msg: Message | undefined;
      try {
        msg = r.any ? anyUnpack(r.any, envoyRegistry) : undefined;
      } catch (e) {
        bad(`resource ${w.name} does not decode: ${(e as Error).message}`);
        return;
      }
      if (!msg) return bad(`resource ${w.name}: no Any or unknown type`);
      const full = msg as unknown as { name?: string; clusterName?: string };
      const name = delta ? r.name : (full.name ?? full.clusterName ?? '');
      if (name !== w.name || (delta && r.version !== w.version)) bad(`resource ${i}: name/version ${name} ≠ ${w.name}`);
      if (typeUrl === TYPE.cluster) {
        const t = (msg as Cluster).clusterDiscoveryType;
        if ((t.case === 'type' && t.value === 3) !== isEdsCluster(seen.bytes, w.start, w.end)) bad(`cluster ${name}: EDS or not`);
      }
      if (typeUrl === TYPE.listener && hcmRdsNames(msg as Listener).join('\n') !== rdsNames(seen.bytes, w.start, w.end).join('\n'))
        bad(`listener ${name}: RDS names differ`);
    });
  }
}

/** The RDS route_config names of a fully decoded Listener, in the order rdsNames reads them. */
function hcmRdsNames(l: Listener): string[] {
  const out: string[] = [];
  const chain = (c: FilterChain | undefined) => {
    for (const f of c?.filters ?? []) {
      if (f.configType.case !== 'typedConfig' || f.configType.value.typeUrl !== EXT.hcm) continue;
      const hcm = anyUnpack(f.configType.value, envoyRegistry) as HttpConnectionManager | undefined;
      if (hcm?.routeSpecifier.case === 'rds') out.push(hcm.routeSpecifier.value.routeConfigName);
    }
  };
  for (const c of l.filterChains) chain(c);
  chain(l.defaultFilterChain);
  return out;
}
