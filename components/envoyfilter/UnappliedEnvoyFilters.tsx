'use client';
// The overview's "EnvoyFilters that apply nowhere" (issue #22 §2; GET /api/envoyfilters): each EnvoyFilter no patch
// of which changed any proxy's config, with why (selects no proxy: the selector / targetRefs reason; or each
// patch's reason: context, proxyVersion, no matching element, decode error), and the proxies to look at.
// Refetched on mesh events (its key sits under the proxies prefix every event invalidates). Renders nothing
// while loading or when every EnvoyFilter applies somewhere.
import { useEnvoyFilterReach } from '@/components/data/useEnvoyFilterReach';
import type { EnvoyFilterReach } from '@/server/api/contract';
import './envoyfilter.css';

export function UnappliedEnvoyFiltersList({ filters }: { filters: readonly EnvoyFilterReach[] }) {
  const nowhere = filters.filter((f) => f.applied === 0);
  if (nowhere.length === 0) return null;
  return (
    <section className="panel ef-nowhere" data-testid="envoyfilters-nowhere">
      <h2>EnvoyFilters that apply nowhere</h2>
      <p className="muted small">
        {nowhere.length} of {filters.length} EnvoyFilter{filters.length === 1 ? '' : 's'} changed no proxy&apos;s config. istiod applies
        them silently or not at all; here is why each one does not land.
      </p>
      <ul>
        {nowhere.map((f) => (
          <li key={`${f.namespace}/${f.name}`} data-testid="envoyfilter-nowhere" data-name={`${f.namespace}/${f.name}`}>
            <span className="mono">
              EnvoyFilter {f.namespace}/{f.name}
            </span>{' '}
            <span className="muted small">
              selects {f.selected} prox{f.selected === 1 ? 'y' : 'ies'}
              {f.partial ? ' (not every one was translated: not proven)' : ''}
            </span>
            <ul className="small">
              {f.why.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Mounted once on the overview. */
export function UnappliedEnvoyFilters() {
  const q = useEnvoyFilterReach();
  return q.data ? <UnappliedEnvoyFiltersList filters={q.data.filters} /> : null;
}
