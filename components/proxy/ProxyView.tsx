'use client';
// One mesh proxy: identity, translation problems, and its config in tabs (DumpBrowser), refetched on
// the SSE "proxy changed" event (react-query invalidation) with changed rows flashed.
import { ProblemsTable } from '@/components/common/ProblemsTable';
import { Labels } from '@/components/common/Labels';
import { useProxy } from '@/components/data/useProxy';
import type { ProxyDetail } from '@/server/api/contract';
import { DumpBrowser } from './DumpBrowser';
import { SyncTimeline } from './SyncTimeline';
import { SecurityTab } from './SecurityTab';

export function ProxyView({ id, initial }: { id: string; initial: ProxyDetail }) {
  const q = useProxy(id, initial);
  const d = q.data ?? initial;
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
      />
    </>
  );
}
