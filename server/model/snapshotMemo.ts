// A per-snapshot memo of derived lookups (indexes a proxy's translation reads many times: pods by name, service
// targets per proxy, DestinationRules per namespace; translate/view/snapshotIndex.ts builds them on first use).
// It is not content: a snapshot copied with some arrays replaced (`{ ...snapshot, destinationRules }`) may carry
// the same memo, so every slot remembers the arrays it was built from and is rebuilt when they differ. The slots are
// a true private field: freezing the snapshot does not freeze them, and two snapshots compare equal (toEqual,
// JSON) whatever their memos hold. Owned by its snapshot: never module state.
export class SnapshotMemo {
  readonly #slots = new Map<symbol, { from: readonly unknown[]; value: unknown }>();

  /** The value of `slot` built from `from` (the snapshot objects it reads, compared by identity), made once. */
  get<T>(slot: symbol, from: readonly unknown[], make: () => T): T {
    const e = this.#slots.get(slot);
    if (e && e.from.length === from.length && e.from.every((x, i) => x === from[i])) return e.value as T;
    const value = make();
    this.#slots.set(slot, { from, value });
    return value;
  }

  /** The value of `slot` if it was built from `from` (compared by identity); never builds it. */
  peek<T>(slot: symbol, from: readonly unknown[]): T | undefined {
    const e = this.#slots.get(slot);
    return e && e.from.length === from.length && e.from.every((x, i) => x === from[i]) ? (e.value as T) : undefined;
  }
}
