'use client';
import { ErrorsTable } from '@/components/common/ErrorsTable';
import { Labels } from '@/components/common/Labels';
import { useProxy } from '@/components/data/useProxy';
import type { ProxyDetail } from '@/server/api/proxies';
import { ClustersTable } from './ClustersTable';
import { ConfigDumpView } from './ConfigDumpView';
import { EndpointsTable } from './EndpointsTable';
import { ListenersTable } from './ListenersTable';
import { RoutesTable } from './RoutesTable';

export function ProxyView({ id, initial }: { id: string; initial: ProxyDetail }) {
  const q = useProxy(id, initial);
  const d = q.data ?? initial;
  const t = d.tables;
  return (
    <>
      <section className="panel">
        <h1 className="mono" data-testid="proxy-id">{d.proxy.id}</h1>
        <dl className="facts">
          <dt>type</dt>
          <dd>
            <span className={`badge ${d.proxy.type}`}>{d.proxy.type}</span>
          </dd>
          <dt>namespace</dt>
          <dd>{d.proxy.namespace}</dd>
          <dt>ips</dt>
          <dd className="mono">{d.proxy.ips.join(', ')}</dd>
          {d.proxy.serviceAccount ? (
            <>
              <dt>service account</dt>
              <dd>{d.proxy.serviceAccount}</dd>
            </>
          ) : null}
          <dt>labels</dt>
          <dd>
            <Labels labels={d.proxy.labels} />
          </dd>
          <dt>snapshot</dt>
          <dd>v{d.version}</dd>
        </dl>
        {q.error ? <p className="error-text">Refresh failed: {q.error.message}</p> : null}
        <ErrorsTable errors={d.errors} caption="Translation problems" />
        <nav className="toc">
          <a href="#listeners">Listeners ({t.listeners.length})</a> · <a href="#routes">Routes ({t.routes.length})</a> ·{' '}
          <a href="#clusters">Clusters ({t.clusters.length})</a> · <a href="#endpoints">Endpoints ({t.endpoints.length})</a> ·{' '}
          <a href="#dump">config_dump</a>
        </nav>
      </section>
      <section className="panel" id="listeners">
        <h2>Listeners</h2>
        <ListenersTable listeners={t.listeners} />
      </section>
      <section className="panel" id="routes">
        <h2>Route configurations</h2>
        <RoutesTable routes={t.routes} />
      </section>
      <section className="panel" id="clusters">
        <h2>Clusters</h2>
        <ClustersTable clusters={t.clusters} />
      </section>
      <section className="panel" id="endpoints">
        <h2>Endpoints</h2>
        <EndpointsTable endpoints={t.endpoints} />
      </section>
      <section className="panel" id="dump">
        <h2>Raw config</h2>
        <ConfigDumpView dump={d.configDump} proxyId={d.proxy.id} />
      </section>
    </>
  );
}
