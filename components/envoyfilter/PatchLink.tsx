'use client';
// A link from a patched resource (a table row, a route-graph node) to the EnvoyFilter patch that changed it: the
// EnvoyFilters tab entry (`?tab=envoyfilters&patch=NS/NAME/I`), opened in place (a history entry, like a tab
// switch) and a real link for a new tab. Clicks do not reach the row underneath (no row selection).
import { useUrlState } from '@/components/common/useUrlState';
import { type PatchRef, patchHref } from './patchMarks';
import './envoyfilter.css';

export function PatchLinks({ refs, compact }: { refs: readonly PatchRef[] | undefined; compact?: boolean }) {
  const { write } = useUrlState();
  if (!refs?.length) return null;
  return (
    <span className="patch-links" data-testid="patched-by">
      {refs.map((r) => (
        <a
          key={r.key}
          href={patchHref(r.key)}
          className="badge patched"
          data-testid="patch-link"
          data-patch={r.key}
          title={`EnvoyFilter ${r.label} (${r.applyTo} ${r.operation}) changed this:\n${r.where.join('\n')}`}
          onClick={(e) => {
            e.stopPropagation();
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            write(new URLSearchParams({ tab: 'envoyfilters', patch: r.key }), true);
          }}
        >
          {compact ? `EF ${r.key.split('/')[1]}` : `EnvoyFilter ${r.label}`}
        </a>
      ))}
    </span>
  );
}
