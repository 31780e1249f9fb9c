'use client';
// One mesh proxy: identity, translation problems, and its config in tabs (DumpBrowser), refetched on
// the SSE "proxy changed" event (react-query invalidation) with changed rows flashed. The page does not
// embed the detail (a 10,000-cluster sidecar's config dump is tens of MB, and the page's server render and
// the browser's parse of it took seconds): the browser fetches it, showing the proxy id meanwhile.
import { ProblemsTable } from '@/components/common/ProblemsTable';
import { Labels } from '@/components/common/Labels';
import { useProxy } from '@/components/data/useProxy';
import { DumpBrowser } from './DumpBrowser';
import { SyncTimeline } from './SyncTimeline';
import { SecurityTab } from './SecurityTab';
import { EnvoyFilterTab } from './EnvoyFilterTab';
import { LiveTab } from './LiveTab';
import { DriftTab } from './DriftTab';

export function ProxyView({ id }: { id: string }) {
  const q = useProxy(id);
  const d = q.data;
  if (!d)
    return (
      <section className="panel proxy-head">
        <h1 className="mono" data-testid="proxy-id">
          {id}
        </h1>
        {q.error ? (
          <p className="error-text" data-testid="proxy-load-error">
            Could not load this proxy: {q.error.message}
          </p>
        ) : (
          <p className="muted" data-testid="proxy-loading" role="status">
            Loading its configuration…
          </p>
        )}
      </section>
    );
  return (
    <>
      <section className="panel proxy-head">
        <h1 className="mono" data-testid="proxy-id">
          {d.proxy.id}
        </h1>
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
          {d.proxy.locality ? (
            <>
              <dt>locality</dt>
              <dd>{d.proxy.locality}</dd>
            </>
          ) : null}
          <dt>labels</dt>
          <dd>
            <Labels labels={d.proxy.labels} />
          </dd>
          <dt>snapshot</dt>
          <dd data-testid="snapshot-version">v{d.version}</dd>
        </dl>
        {q.error ? <p className="error-text">Refresh failed: {q.error.message}. The page shows the last good data.</p> : null}
        <ProblemsTable problems={d.errors} caption="Translation problems" />
      </section>
      {/* The page is dynamic, so useSearchParams needs no Suspense boundary here (and a streamed swap would
          briefly show two copies of a large table). */}
      <DumpBrowser
        proxyId={d.proxy.id}
        dump={d.configDump}
        live
        downloadName={`${d.proxy.id}-config_dump.json`}
        syncTab={<SyncTimeline proxyId={d.proxy.id} />}
        securityTab={<SecurityTab security={d.security} dump={d.configDump} />}
        envoyFilterTab={<EnvoyFilterTab patches={d.envoyFilters ?? []} />}
        {...(d.envoyFilters?.length ? { envoyFilters: d.envoyFilters } : {})}
        liveTab={<LiveTab proxyId={d.proxy.id} />}
        driftTab={<DriftTab proxyId={d.proxy.id} version={d.version} kind={d.proxy.type} />}
      />
    </>
  );
}
