'use client';
// Shown when the overview graph is too large to draw whole (collapse.ts): how many namespaces are
// collapsed, a control to expand one, and "collapse all" / "expand all".
import { EXPAND_ALL, sizeOf } from '@/components/graph/collapse';
import type { FilteredGraph } from '@/components/graph/filter';

export function CollapseBar({
  graph,
  collapsed,
  expand,
  onExpand,
}: {
  /** The graph in view before collapsing. */
  graph: Pick<FilteredGraph, 'nodes'>;
  /** Names of the namespaces drawn collapsed, in graph order. */
  collapsed: readonly string[];
  /** `expand=` from the URL. */
  expand: readonly string[];
  onExpand: (expand: string[]) => void;
}) {
  const all = expand.includes(EXPAND_ALL);
  return (
    <div className="toolbar collapse-bar" data-testid="collapse-bar">
      <span>
        Large graph: <strong>{sizeOf(graph)}</strong> services and workloads in view.{' '}
        {all ? (
          'Every namespace is expanded.'
        ) : (
          <>
            <strong data-testid="collapsed-count">{collapsed.length}</strong> namespace{collapsed.length === 1 ? '' : 's'} collapsed (click
            one to expand it).
          </>
        )}
      </span>
      {collapsed.length > 0 ? (
        <label>
          expand{' '}
          <select
            data-testid="expand-namespace"
            value=""
            onChange={(e) => {
              if (e.target.value) onExpand([...expand, e.target.value]);
            }}
          >
            <option value="">namespace…</option>
            {collapsed.map((ns) => (
              <option key={ns} value={ns}>
                {ns}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {expand.length > 0 ? (
        <button type="button" className="linklike" data-testid="collapse-all" onClick={() => onExpand([])}>
          collapse all
        </button>
      ) : null}
      {!all ? (
        <button type="button" className="linklike" data-testid="expand-all" onClick={() => onExpand([EXPAND_ALL])}>
          expand all (slow to lay out)
        </button>
      ) : null}
    </div>
  );
}
