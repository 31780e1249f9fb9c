// Apply on the demo mesh: the draft's objects go into an overlay source of the store ('sandbox-apply',
// registered after the demo source, so it wins; deletions hide the demo's objects). Reset empties it.
// Everything downstream (snapshots, ADS pushes, the UI) follows like any source change.
import { objectKey } from '../../model/schema/kinds';
import { parseStoreKey } from '../../impact/affected';
import type { Store } from '../../sources/store';
import { rawKey } from '../../sources/storeKeys';
import type { RawInput } from '../../sources/types';
import type { DraftEdit } from '../../sandbox/types';
import { type Applier, type ApplyOutcome, describeEdit } from './types';

export const APPLY_SOURCE_ID = 'sandbox-apply';

export class DemoApplier implements Applier {
  readonly mode = 'demo' as const;
  private readonly puts = new Map<string, RawInput>();
  private readonly hidden = new Set<string>();

  constructor(private readonly store: Store) {}

  async plan(edits: readonly DraftEdit[]): Promise<ApplyOutcome> {
    return { mode: this.mode, applied: false, items: edits.map((e) => ({ op: e.op, object: describeEdit(e) })) };
  }

  async apply(edits: readonly DraftEdit[]): Promise<ApplyOutcome> {
    for (const e of edits) {
      if (e.op === 'put') {
        const key = rawKey(e.object);
        if (key === undefined) continue;
        this.puts.set(key, { object: e.object, origin: { source: 'sandbox', file: 'applied' } });
        this.hidden.delete(key);
        continue;
      }
      const keys = e.ref.apiVersion
        ? [objectKey(e.ref.apiVersion, e.ref.kind, e.ref.namespace, e.ref.name)]
        : [...this.store.inputs().map((i) => rawKey(i.object)), ...this.puts.keys()].filter((k): k is string => {
            const p = k ? parseStoreKey(k) : undefined;
            return p !== undefined && p.kind === e.ref.kind && p.namespace === e.ref.namespace && p.name === e.ref.name;
          });
      for (const k of keys) {
        this.puts.delete(k);
        this.hidden.add(k);
      }
    }
    this.publish();
    return { mode: this.mode, applied: true, items: edits.map((e) => ({ op: e.op, object: describeEdit(e), ok: true })) };
  }

  async reset(): Promise<void> {
    this.puts.clear();
    this.hidden.clear();
    this.publish();
  }

  private publish(): void {
    this.store.replace(APPLY_SOURCE_ID, [...this.puts.values()]);
    this.store.hide(APPLY_SOURCE_ID, [...this.hidden]);
    this.store.status({
      id: APPLY_SOURCE_ID,
      kind: 'sandbox',
      state: 'connected',
      detail: `${this.puts.size} applied, ${this.hidden.size} deleted`,
    });
    this.store.flush();
  }
}
