'use client';
import Link from 'next/link';
import { Labels } from '@/components/common/Labels';
import { ErrorsTable } from '@/components/common/ErrorsTable';
import type { ErrorsResponse, ProxiesResponse } from '@/components/data/fetchers';
import { useInputErrors, useProxies } from '@/components/data/useProxies';
import { SourcesPanel } from './SourcesPanel';

export function HomeView({ initialProxies, initialErrors }: { initialProxies: ProxiesResponse; initialErrors: ErrorsResponse }) {
  const proxies = useProxies(initialProxies).data ?? initialProxies;
  const errors = useInputErrors(initialErrors).data ?? initialErrors;
  return (
    <>
      <section className="panel">
        <h2>
          Proxies <span className="muted">({proxies.proxies.length}, snapshot v{proxies.version})</span>
        </h2>
        {proxies.proxies.length === 0 ? (
          <p className="muted">No proxies: the inputs define no pod with a sidecar or gateway.</p>
        ) : (
          <table className="table" data-testid="proxies-table">
            <thead>
              <tr>
                <th>id</th>
                <th>type</th>
                <th>namespace</th>
                <th>ips</th>
                <th>labels</th>
                <th className="num">listeners</th>
                <th className="num">routes</th>
                <th className="num">clusters</th>
                <th className="num">endpoints</th>
              </tr>
            </thead>
            <tbody>
              {proxies.proxies.map((p) => (
                <tr key={p.id} data-proxy-id={p.id}>
                  <td className="mono">
                    <Link href={`/proxies/${encodeURIComponent(p.id)}`}>{p.id}</Link>
                    {p.errors > 0 ? <span className="badge warn" title="translation problems">{p.errors}</span> : null}
                  </td>
                  <td>
                    <span className={`badge ${p.type}`}>{p.type}</span>
                  </td>
                  <td>{p.namespace}</td>
                  <td className="mono">{p.ips.join(', ')}</td>
                  <td>
                    <Labels labels={p.labels} />
                  </td>
                  <td className="num">{p.counts.listeners}</td>
                  <td className="num">{p.counts.routes}</td>
                  <td className="num">{p.counts.clusters}</td>
                  <td className="num">{p.counts.endpoints}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <SourcesPanel sources={errors.sources} xds={errors.xds} />
      <section className="panel">
        {errors.errors.length === 0 ? <p className="muted">No input errors.</p> : <ErrorsTable errors={errors.errors} caption="Input errors" />}
      </section>
    </>
  );
}
