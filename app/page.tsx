// Overview: the mesh as a graph derived from config (namespaces, services, workloads, proxies and the
// routes between them), the sources and the located input errors.
import { Suspense } from 'react';
import type { ErrorsResponse } from '@/server/api/contract';
import { OverviewView } from '@/components/overview/OverviewView';
import { analyzeMesh } from '@/server/api/analyze';
import { inputErrors } from '@/server/api/debug';
import { gatewayApiStatus } from '@/server/api/gatewayApi';
import { meshGraph, typedGraph } from '@/server/api/graph';
import { DEFAULT_GRAPH_TYPE, isGraphType } from '@/server/meshGraph/graphType';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { scopeErrors, scopeFindings, scopeGatewayApi, scopeGraph } from '@/server/api/visibility';
import { pageContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export default async function Overview({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const asked = typeof sp.graphType === 'string' ? sp.graphType : undefined;
  const graphType = isGraphType(asked) ? asked : DEFAULT_GRAPH_TYPE;
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const { rt, ctx } = page;
  const graph =
    ctx.viewer && !ctx.viewer.all ? typedGraph(ctx, graphType, scopeGraph(ctx, meshGraph(ctx)).body).body : typedGraph(ctx, graphType).body;
  const errors = scopeErrors(ctx, inputErrors(ctx)).body as ErrorsResponse;
  const findings = scopeFindings(ctx, analyzeMesh(ctx)).body.findings;
  const gatewayApi = scopeGatewayApi(ctx, gatewayApiStatus(ctx)).body;
  const c = ctx.viewer && !ctx.viewer.all ? undefined : await rt.contracts();
  const contracts = c && {
    file: c.file,
    passed: c.passed,
    failed: c.failed,
    failures: c.results.filter((r) => !r.pass).map((r) => ({ name: r.contract.name, detail: r.detail })),
    errors: c.errors.map((e) => `${e.line !== undefined ? `line ${e.line}: ` : ''}${e.path ? `${e.path}: ` : ''}${e.message}`),
  };
  return (
    <Suspense>
      <OverviewView
        initialGraph={graph}
        initialErrors={errors}
        initialFindings={findings}
        initialGatewayApi={gatewayApi}
        {...(contracts ? { contracts } : {})}
      />
    </Suspense>
  );
}
