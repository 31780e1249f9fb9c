// /api/demo/traffic without the demo data plane (a cluster, or files without --demo-traffic): the services
// whose VirtualService splits their catch-all route by weight, configured shares only (no calls counted), so
// the /demo page can move their weights through the gated apply while Prometheus shows what follows.
import { weightedServicePlans } from '../demo/plan';
import { type TrafficReport, trafficReport } from '../demo/report';
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import type { ApiResult } from './types';

export function withConfiguredServices<T extends TrafficReport | { error: string }>(
  r: ApiResult<T>,
  snapshot: MeshSnapshot,
  options: TranslateOptions,
): ApiResult<T> {
  const body = r.body as TrafficReport;
  if (r.status !== 200 || body.running || body.services.length > 0) return r;
  const services = trafficReport({ services: weightedServicePlans(snapshot, options), clients: [] }, [], body).services;
  return { ...r, body: { ...body, services } as T };
}
