// GET /api/ztunnel: what istiod sends ztunnel for the current snapshot, the same JSON as
// `meshscope ztunnel-config -o json` (issue #20 §3): `{"workloads": [...], "services": [...], "policies": [...]}`.
// `?section=workloads|services|policies` answers that list only. /debug/config_dump?types=workload|authorization
// (istiod's ztunnel dump by WDS type) answers from the same view.
import { ZTUNNEL_SECTIONS, type ZtunnelConfig, type ZtunnelSection, ztunnelConfig, ztunnelSection } from '../pipeline/ztunnelConfig';
import { memoized } from './snapshotMemo';
import { fail, ok, type ApiContext, type ApiResult } from './types';

const view = (ctx: ApiContext): ZtunnelConfig => memoized(ctx, 'ztunnel', () => ztunnelConfig(ctx.snapshot, ctx.options).config);

export function ztunnelView(ctx: ApiContext, query: URLSearchParams = new URLSearchParams()): ApiResult {
  const section = query.get('section') ?? 'all';
  if (!(ZTUNNEL_SECTIONS as readonly string[]).includes(section))
    return fail(400, `section must be one of ${ZTUNNEL_SECTIONS.join('|')}, got "${section}"`);
  return ok(ztunnelSection(view(ctx), section as ZtunnelSection));
}

/** `types=workload` (Workloads and Services: istio.workload.Address), `authorization`, or both comma-separated. */
export function ztunnelDebugDump(ctx: ApiContext, types: string): ApiResult {
  const want = new Set(
    types
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  );
  for (const t of want)
    if (t !== 'workload' && t !== 'authorization') return fail(400, `types must be workload and/or authorization, got "${t}"`);
  const c = view(ctx);
  return ok({
    ...(want.has('workload') ? { workloads: c.workloads, services: c.services } : {}),
    ...(want.has('authorization') ? { policies: c.policies } : {}),
  });
}
