// The services of one namespace that select a workload's labels, found without testing every selector against every
// pod (10,000 pods × 50 Services a namespace was most of the from-scratch view's translation). Each item is filed
// under the first label pair of its selector; a workload's candidates are the items filed under its own labels,
// checked against their whole selector and returned in the items' order, so callers see what a linear scan in that
// order would select (istiod's krt index of services by namespace and selector plays this part). Pure; built once
// per view.
type Pairs = ReadonlyArray<readonly [string, string]>;

export class SelectorIndex<T> {
  /** First selector key → value → indexes of the items filed there (ascending). */
  private readonly byPair = new Map<string, Map<string, number[]>>();
  private readonly selectors: Pairs[] = [];

  /** `selectorOf`: an item's selector as pairs; an item with none or an empty one selects nothing. */
  constructor(
    private readonly items: readonly T[],
    selectorOf: (item: T) => Pairs | undefined,
  ) {
    items.forEach((item, i) => {
      const pairs = selectorOf(item) ?? [];
      this.selectors.push(pairs);
      const first = pairs[0];
      if (!first) return;
      let values = this.byPair.get(first[0]);
      if (!values) this.byPair.set(first[0], (values = new Map()));
      const list = values.get(first[1]);
      if (list) list.push(i);
      else values.set(first[1], [i]);
    });
  }

  /** The items whose whole selector the labels satisfy, in the items' order. */
  matching(labels: Readonly<Record<string, string>>): T[] {
    let candidates: number[] | undefined;
    let several = false;
    for (const k in labels) {
      const list = this.byPair.get(k)?.get(labels[k]!);
      if (!list) continue;
      // The index's own lists are never changed: a second hit makes a new array.
      if (!candidates) candidates = list;
      else {
        candidates = candidates.concat(list);
        several = true;
      }
    }
    if (!candidates) return [];
    if (several) candidates.sort((a, b) => a - b);
    const out: T[] = [];
    for (const i of candidates) {
      const pairs = this.selectors[i]!;
      let all = true;
      for (const [k, v] of pairs)
        if (labels[k] !== v) {
          all = false;
          break;
        }
      if (all) out.push(this.items[i]!);
    }
    return out;
  }
}
