// Per-snapshot memo of derived views (the overview graph, analyze findings, Gateway API status): computed
// once per snapshot and reused by every request until the snapshot changes. Keyed by the snapshot object
// (a WeakMap: a replaced snapshot's entries go with it) and the options they were computed with. The one
// instance is owned by the runtime (server/runtime.ts); handlers use it through ApiContext.memo.
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';

interface Entry {
  options: TranslateOptions;
  value: unknown;
}

export class SnapshotMemo {
  private readonly bySnapshot = new WeakMap<MeshSnapshot, Map<string, Entry>>();
  /** How many times each view was built (what tests and /debug read to see the memo work). */
  readonly builds = new Map<string, number>();

  /** `build()` once per (snapshot, name, options); later calls return the same value. */
  get<T>(snapshot: MeshSnapshot, options: TranslateOptions, name: string, build: () => T): T {
    let views = this.bySnapshot.get(snapshot);
    if (!views) {
      views = new Map();
      this.bySnapshot.set(snapshot, views);
    }
    const hit = views.get(name);
    if (hit && hit.options === options) return hit.value as T;
    const value = build();
    this.builds.set(name, (this.builds.get(name) ?? 0) + 1);
    views.set(name, { options, value });
    return value;
  }
}

/** A view of `ctx`'s snapshot, through its memo when it has one (the CLI and tests without one just build it). */
export const memoized = <T>(
  ctx: { snapshot: MeshSnapshot; options: TranslateOptions; memo?: SnapshotMemo },
  name: string,
  build: () => T,
): T => (ctx.memo ? ctx.memo.get(ctx.snapshot, ctx.options, name, build) : build());
