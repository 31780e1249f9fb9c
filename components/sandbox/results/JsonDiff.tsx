'use client';
// Before → after Envoy JSON of one resource as a structural diff (jsondiffpatch's HTML formatter: it
// escapes the values it prints). Unchanged parts are folded unless asked for.
import { create } from 'jsondiffpatch';
import { format } from 'jsondiffpatch/formatters/html';
import 'jsondiffpatch/formatters/styles/html.css';
import { useMemo, useState } from 'react';

// Arrays of named Envoy resources (virtual hosts, routes, clusters) are matched by name, not position.
const differ = create({
  objectHash: (o: object, i?: number) => {
    const r = o as { name?: unknown; cluster_name?: unknown };
    return typeof r.name === 'string' ? r.name : typeof r.cluster_name === 'string' ? r.cluster_name : `#${i ?? 0}`;
  },
  arrays: { detectMove: true },
});

export function JsonDiff({ before, after, testId }: { before: unknown; after: unknown; testId?: string }) {
  const [unchanged, setUnchanged] = useState(false);
  const html = useMemo(() => {
    const delta = differ.diff(before ?? {}, after ?? {});
    return delta ? format(delta, before ?? {}) : undefined;
  }, [before, after]);
  if (!html) return <p className="muted small">No difference.</p>;
  return (
    <div className="sb-jsondiff" data-testid={testId}>
      <label className="small muted">
        <input type="checkbox" checked={unchanged} onChange={(e) => setUnchanged(e.target.checked)} /> show unchanged fields
      </label>
      <div
        className={unchanged ? 'jsondiffpatch-unchanged-visible' : 'jsondiffpatch-unchanged-hidden'}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: jsondiffpatch's formatter escapes every value it prints.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}
