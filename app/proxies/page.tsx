// Proxies: every proxy with its type, labels, xDS connection and sync state, and resource counts.
import { Suspense } from 'react';
import type { ErrorsResponse, ProxiesResponse } from '@/server/api/contract';
import type { SyncStatus } from '@/server/api/contract';
import { ProxiesView } from '@/components/proxies/ProxiesView';
import { inputErrors, syncz } from '@/server/api/debug';
import { listProxies } from '@/server/api/proxies';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { scopeErrors, scopeProxies, scopeSyncz } from '@/server/api/visibility';
import { pageContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export default async function Proxies() {
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const { ctx } = page;
  const proxies = scopeProxies(ctx, listProxies(ctx)).body as ProxiesResponse;
  const errors = scopeErrors(ctx, inputErrors(ctx)).body as ErrorsResponse;
  const sync = scopeSyncz(ctx, syncz(ctx)).body as SyncStatus[];
  return (
    <Suspense>
      <ProxiesView initialProxies={proxies} initialErrors={errors} initialSyncz={sync} />
    </Suspense>
  );
}
