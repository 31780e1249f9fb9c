'use client';
// The EnvoyFilter tab of a mesh proxy (issue #22): every config patch of every EnvoyFilter that could concern the
// proxy (root namespace and its own), in istiod's order — applied or not, where it changed the config, or why not.
// `?tab=envoyfilters&patch=NS/NAME/I` (the links on patched resources in the tables and the route graph) selects
// and scrolls to one entry.
import { useEffect } from 'react';
import { useUrlState } from '@/components/common/useUrlState';
import { patchKey } from '@/components/envoyfilter/patchMarks';
import '@/components/envoyfilter/envoyfilter.css';
import type { EnvoyFilterPatchReport } from '@/server/api/contract';

const rowId = (key: string) => `envoyfilter-patch-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;

export function EnvoyFilterTab({ patches }: { patches: readonly EnvoyFilterPatchReport[] }) {
  const selected = useUrlState().params.get('patch') ?? undefined;
  useEffect(() => {
    if (selected) document.getElementById(rowId(selected))?.scrollIntoView({ block: 'center' });
  }, [selected]);
  if (patches.length === 0) {
    return (
      <section className="panel" data-testid="envoyfilter-tab">
        <p className="muted">No EnvoyFilter in the root namespace or this proxy's namespace.</p>
      </section>
    );
  }
  const applied = patches.filter((p) => p.applied).length;
  return (
    <section className="panel" data-testid="envoyfilter-tab">
      <p className="small">
        {applied} of {patches.length} patches changed this proxy's config.
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>EnvoyFilter</th>
            <th>patch</th>
            <th>applyTo</th>
            <th>operation</th>
            <th>context</th>
            <th>applied</th>
            <th>where / why not</th>
          </tr>
        </thead>
        <tbody>
          {patches.map((p) => (
            <tr
              key={patchKey(p)}
              id={rowId(patchKey(p))}
              data-testid="envoyfilter-patch"
              data-patch={patchKey(p)}
              data-applied={p.applied}
              className={selected === patchKey(p) ? 'patch-selected' : undefined}
              aria-current={selected === patchKey(p) ? 'true' : undefined}
            >
              <td className="mono">
                {p.namespace}/{p.name}
              </td>
              <td className="mono">configPatches[{p.patch}]</td>
              <td className="mono">{p.applyTo}</td>
              <td className="mono">{p.operation}</td>
              <td className="mono">{p.context}</td>
              <td>{p.applied ? <span className="badge">applied</span> : <span className="badge muted">not applied</span>}</td>
              <td className="small">
                {p.applied ? (
                  <ul>
                    {/* Two chains of one listener may share a name (plaintext and mTLS): each place once. */}
                    {[...new Set(p.targets)].map((t) => (
                      <li key={t} className="mono">
                        {t}
                      </li>
                    ))}
                  </ul>
                ) : (
                  p.reason
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
