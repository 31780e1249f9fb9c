'use client';
// One changed proxy: its semantic diff (routes added / removed / moved / changed, weights old → new), its
// route graph with the draft's changes coloured, what the draft produces for it (the route tables of the
// changed route configs, as on the proxy page) and the raw Envoy JSON of each changed resource as a diff.
import { useMemo, useState } from 'react';
import { useProxy } from '@/components/data/useProxy';
import { routeColumns, routeFilters } from '@/components/proxy/columns';
import { routeRows } from '@/server/envoy/dumpModel/rows';
import { RouteGraphView } from '@/components/routeGraph/RouteGraphView';
import type { GraphFilter } from '@/components/routeGraph/model/types';
import { VirtualTable } from '@/components/tables/VirtualTable';
import type { ViewQuery } from '@/components/tables/tableModel';
import { readConfigDump } from '@/server/envoy/dumpReader';
import type { ProxyDiff, RouteChange } from '@/server/sandbox/types';
import { clusterLabel } from '../model/checks';
import { proxyGraphDiff } from '../model/graphDiff';
import { JsonDiff } from './JsonDiff';
import '@/components/proxy/proxy.css';

type Tab = 'changes' | 'graph' | 'produces' | 'json';
const TABS: [Tab, string][] = [
  ['changes', 'Changes'],
  ['graph', 'Route graph'],
  ['produces', 'What this produces'],
  ['json', 'Envoy JSON'],
];

const weights = (w: Record<string, number> | undefined) =>
  w
    ? Object.entries(w)
        .map(([c, n]) => `${clusterLabel(c)} ${n}`)
        .join(' / ')
    : '—';

function RouteChanges({ routes }: { routes: readonly RouteChange[] }) {
  if (routes.length === 0) return <p className="muted small">No route changes.</p>;
  return (
    <div className="sb-scroll">
      <table className="table" data-testid="route-changes">
        <thead>
          <tr>
            <th>change</th>
            <th>route config · virtual host</th>
            <th>route</th>
            <th>what</th>
            <th>from rule</th>
          </tr>
        </thead>
        <tbody>
          {routes.map((r) => (
            <tr
              key={`${r.change}/${r.routeConfig}/${r.virtualHost}/${r.route}/${r.from ?? ''}/${r.to ?? ''}`}
              className={`sb-${r.change}`}
              data-change={r.change}
            >
              <td>
                <span className={`badge sb-change-${r.change}`}>{r.change}</span>
              </td>
              <td className="mono small">
                {r.routeConfig} · {r.virtualHost}
              </td>
              <td className="mono small">
                {r.route}
                {r.from !== undefined || r.to !== undefined ? (
                  <span className="muted">
                    {' '}
                    #{r.from ?? '–'}→#{r.to ?? '–'}
                  </span>
                ) : null}
              </td>
              <td className="small" data-testid="route-change-detail">
                {r.detail ?? ''}
                {r.weights ? (
                  <div className="mono" data-testid="route-change-weights">
                    {weights(r.weights.before)} → <span className="weight">{weights(r.weights.after)}</span>
                  </div>
                ) : null}
              </td>
              <td className="mono small">
                {r.source ? `${r.source.namespace}/${r.source.name}${r.source.rule ? ` ${r.source.rule}` : ''}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DiffGraph({ diff }: { diff: ProxyDiff }) {
  const live = useProxy(diff.proxy);
  // Start on the first changed virtual host (with its route configuration and listeners), else route config.
  const first = diff.routes[0];
  const firstRc = diff.resources.find((r) => r.type === 'routes')?.name;
  const [filter, setFilter] = useState<GraphFilter>(
    first ? { routeConfig: first.routeConfig, virtualHost: first.virtualHost } : firstRc ? { routeConfig: firstRc } : {},
  );
  const [selected, setSelected] = useState<string>();
  const merged = useMemo(
    () => (live.data ? proxyGraphDiff(readConfigDump(live.data.configDump).config, diff.resources) : undefined),
    [live.data, diff.resources],
  );
  if (live.error)
    return (
      <p className="error-text small">
        Could not load {diff.proxy}: {live.error.message}
      </p>
    );
  if (!merged) return <p className="muted small">Loading {diff.proxy}’s live config…</p>;
  return (
    <div data-testid="sandbox-diff-graph" data-added={[...merged.nodes.values()].filter((m) => m === 'added').length}>
      <p className="graph-legend small">
        <span>
          <span className="swatch sb-sw-added" /> added by the draft
        </span>
        <span>
          <span className="swatch sb-sw-changed" /> changed (edge label: share old → new)
        </span>
        <span>
          <span className="swatch sb-sw-removed" /> removed
        </span>
      </p>
      <RouteGraphView
        graph={merged.graph}
        filter={filter}
        onFilterChange={setFilter}
        {...(selected ? { selected } : {})}
        onSelect={setSelected}
        proxyId={diff.proxy}
        height={420}
        diff={merged}
      />
    </div>
  );
}

function Produces({ diff, hosts }: { diff: ProxyDiff; hosts: readonly string[] }) {
  const [query, setQuery] = useState<ViewQuery>({ search: '', filters: {} });
  const rows = useMemo(() => {
    const all = routeRows(diff.resources.filter((r) => r.type === 'routes' && r.after).map((r) => r.after));
    const short = hosts.map((h) => h.split('.')[0] ?? h);
    const mine = all.filter((r) => short.some((h) => r.vhost === h || r.vhost.startsWith(`${h}.`) || r.vhost.startsWith(`${h}:`)));
    return mine.length ? mine : all;
  }, [diff.resources, hosts]);
  return (
    <VirtualTable
      testId="sandbox-produces"
      label="Routes the draft produces"
      rows={rows}
      columns={routeColumns}
      filters={routeFilters}
      rowKey={(r) => r.key}
      query={query}
      onQueryChange={setQuery}
      maxHeight={360}
      empty="The draft changes no route configuration of this proxy (see the other resources in Envoy JSON)."
    />
  );
}

export function ProxyDiffPanel({ diff, hosts }: { diff: ProxyDiff; hosts: readonly string[] }) {
  const [tab, setTab] = useState<Tab>('changes');
  return (
    <section className="panel sb-proxy-diff" data-testid="proxy-diff" data-proxy={diff.proxy}>
      <h2>
        <span className="mono">{diff.proxy}</span> <span className="muted small">live → draft</span>
      </h2>
      <ul className="sb-summary" data-testid="proxy-diff-summary">
        {diff.summary.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <div className="tabs" role="tablist">
        {TABS.map(([t, label]) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={`tab${tab === t ? ' active' : ''}`}
            onClick={() => setTab(t)}
          >
            {label}
            {t === 'json' ? <span className="count">{diff.resources.length}</span> : null}
          </button>
        ))}
      </div>
      <div className="tabpanel">
        {tab === 'changes' ? (
          <>
            <RouteChanges routes={diff.routes} />
            {diff.virtualHosts.length ? (
              <p className="small">
                {diff.virtualHosts.map((v) => (
                  <span key={`${v.routeConfig}/${v.virtualHost}`} className={`badge sb-change-${v.change}`}>
                    {v.change} vhost {v.virtualHost} ({v.routeConfig})
                  </span>
                ))}
              </p>
            ) : null}
            <p className="small muted">
              Resources:{' '}
              {diff.resources.map((r) => (
                <span key={`${r.type}/${r.name}`} className={`badge sb-change-${r.change}`}>
                  {r.type} {r.name} {r.change}
                </span>
              ))}
            </p>
          </>
        ) : null}
        {tab === 'graph' ? <DiffGraph diff={diff} /> : null}
        {tab === 'produces' ? <Produces diff={diff} hosts={hosts} /> : null}
        {tab === 'json'
          ? diff.resources.map((r) => (
              <details key={`${r.type}/${r.name}`} open={diff.resources.length <= 2} className="route-config">
                <summary>
                  <span className="mono">
                    {r.type} {r.name}
                  </span>{' '}
                  <span className={`badge sb-change-${r.change}`}>{r.change}</span>
                </summary>
                <JsonDiff before={r.before} after={r.after} testId="resource-json-diff" />
              </details>
            ))
          : null}
      </div>
    </section>
  );
}
