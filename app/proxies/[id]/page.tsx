// One proxy: its config as tabs (listeners, routes, clusters, endpoints, route graph, trace, raw, sync).
import Link from 'next/link';
import { ProxyView } from '@/components/proxy/ProxyView';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { hiddenProxy } from '@/server/api/visibility';
import { pageContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export default async function ProxyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const { rt, ctx } = page;
  // The browser fetches the detail (GET /api/proxies/ID): embedding a large config dump in the page cost
  // seconds of server render and browser parse (bench/uiTti.ts). Here only: does the proxy exist (for this viewer).
  if (!rt.snapshot().proxiesById.has(id) || hiddenProxy(ctx, id)) {
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
  return <ProxyView id={id} />;
}
