// Proxies: every proxy with its type, labels, xDS connection and sync state, and resource counts.
import { Suspense } from 'react';
import type { ErrorsResponse, ProxiesResponse } from '@/server/api/contract';
import type { SyncStatus } from '@/server/api/contract';
import { ProxiesView } from '@/components/proxies/ProxiesView';
import { inputErrors, syncz } from '@/server/api/debug';
import { listProxies } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export default async function Proxies() {
  const rt = await readyRuntime();
  const ctx = rt.context();
  const proxies = listProxies(ctx).body as ProxiesResponse;
  const errors = inputErrors(ctx).body as ErrorsResponse;
  const sync = syncz(ctx).body as SyncStatus[];
  return (
    <Suspense>
      <ProxiesView initialProxies={proxies} initialErrors={errors} initialSyncz={sync} />
    </Suspense>
  );
}
