// One proxy: its config as tabs (listeners, routes, clusters, endpoints, route graph, trace, raw, sync).
import Link from 'next/link';
import { ProxyView } from '@/components/proxy/ProxyView';
import { proxyDetail, type ProxyDetail } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export default async function ProxyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const rt = await readyRuntime();
  const res = proxyDetail(rt.context(), id);
  if (res.status !== 200) {
    return (
      <section className="panel" data-testid="proxy-not-found">
        <h1>Proxy not found</h1>
        <p>
          No proxy <code>{id}</code> in snapshot v{rt.snapshot().version}. Pods become proxies when they carry an <code>istio-proxy</code>{' '}
          container or the <code>sidecar.istio.io/status</code> annotation. <Link href="/">Back to the list</Link>, or{' '}
          <Link href="/dump">open a config dump</Link> instead.
        </p>
      </section>
    );
  }
  const detail = res.body as ProxyDetail;
  // The view derives its rows from the config dump; the summary tables would only double the page payload.
  const initial: ProxyDetail = { ...detail, tables: { listeners: [], routes: [], clusters: [], endpoints: [] } };
  return <ProxyView id={id} initial={initial} />;
}
