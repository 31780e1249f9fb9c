// Per-object memo for repeated snapshot builds over mostly unchanged inputs (the store's rebuild after one
// file changes): each raw input is parsed and validated once, keyed by the input object's identity (sources
// replace inputs, never mutate them; the store keeps one object per unchanged input). A hit is the very same
// typed object as last time, so everything built from it stays deep-equal to a build from scratch.
import type { RawInput } from './inputs';
import type { PodModel, ProxyModel } from './mesh';
import type { PodEndpointMemo } from './parse/endpoints';
import type { PodsMemo } from './parse/pods';
import type { ServicesMemo } from './parse/services';
import { proxyOf } from './proxyIdentity';
import type { BuildState } from './snapshotState';
import { inputKey, type ParsedOne, parseOne, restamp } from './parse/objects';

export class SnapshotCache {
  /** The last build, for the next one to derive from (../snapshotIncremental); undefined after one it could not keep. */
  last: BuildState | undefined;
  /** Builds from scratch and incremental builds so far (bench and tests read them). */
  readonly stats = { full: 0, incremental: 0 };
  private readonly parsed = new WeakMap<RawInput, { index: number; one: ParsedOne }>();
  /** Pods expanded per parsed workload object, PodModels per pod (parse/pods). */
  readonly pods: PodsMemo = { workloads: new WeakMap(), pods: new WeakMap() };
  /** ServiceModels per Service object (parse/services). */
  readonly services: ServicesMemo = new WeakMap();
  /** Pod endpoints per PodModel (parse/endpoints). */
  readonly podEndpoints: PodEndpointMemo = new WeakMap();
  /** ProxyModels per PodModel (a PodModel is reused only while everything it was built from is unchanged). */
  private readonly proxies = new WeakMap<PodModel, ProxyModel>();

  readonly proxyOf = (pod: PodModel): ProxyModel => {
    let p = this.proxies.get(pod);
    if (!p) this.proxies.set(pod, (p = proxyOf(pod)));
    return p;
  };

  private readonly keys = new WeakMap<RawInput, string | undefined>();

  /** The store key of an input (`group/version/kind/namespace/name`, undefined without one), memoized. */
  readonly keyOf = (input: RawInput): string | undefined => {
    if (this.keys.has(input)) return this.keys.get(input);
    const key = inputKey(input);
    this.keys.set(input, key);
    return key;
  };

  /** parseOne(input, index), memoized per input object (re-stamped when only its position moved). */
  readonly parse = (input: RawInput, index: number): ParsedOne => {
    const hit = this.parsed.get(input);
    if (hit && hit.index === index) return hit.one;
    const one = hit ? restamp(hit.one, index) : parseOne(input, index);
    this.parsed.set(input, { index, one });
    return one;
  };
}
