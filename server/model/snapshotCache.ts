// Per-object memo for repeated snapshot builds over mostly unchanged inputs (the store's rebuild after one
// file changes): each raw input is parsed and validated once, keyed by the input object's identity (sources
// replace inputs, never mutate them; the store keeps one object per unchanged input). A hit is the very same
// typed object as last time, so everything built from it stays deep-equal to a build from scratch.
import type { RawInput } from './inputs';
import type { ExpandMemo } from './parse/pods';
import { type ParsedOne, parseOne, restamp } from './parse/objects';

export class SnapshotCache {
  private readonly parsed = new WeakMap<RawInput, { index: number; one: ParsedOne }>();
  /** Pods expanded per parsed workload object (parse/pods). */
  readonly workloads: ExpandMemo = new WeakMap();

  /** parseOne(input, index), memoized per input object (re-stamped when only its position moved). */
  readonly parse = (input: RawInput, index: number): ParsedOne => {
    const hit = this.parsed.get(input);
    if (hit && hit.index === index) return hit.one;
    const one = hit ? restamp(hit.one, index) : parseOne(input, index);
    this.parsed.set(input, { index, one });
    return one;
  };
}
