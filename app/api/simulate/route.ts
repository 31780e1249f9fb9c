// Thin adapter: POST /api/simulate {proxyId, request[, config: "meshscope"|"live"]} | {dump, request} → the
// simulator's JSON, computed in the CPU pool (server/isolate: time budget, bounded queue; docs/budgets.md),
// never on the ADS thread. `config: "live"` reads the pod's own Envoy dump first (server/api/simulateLive.ts).
import { jsonTextResponse, readJsonBody, toResponse } from '@/server/api/http';
import { maxBodyBytes } from '@/server/api/runtimeConfig';
import { resolveSimulateBody, withLiveInfo } from '@/server/api/simulateLive';
import { hiddenProxy } from '@/server/api/visibility';
import { apiContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const r = await apiContext(req);
  if (r.response) return r.response;
  const { rt, ctx } = r;
  const { body, error } = await readJsonBody(req, maxBodyBytes(rt.config));
  if (error) return toResponse(error, req.url);
  const proxyId = (body as { proxyId?: unknown } | null)?.proxyId;
  const hidden = typeof proxyId === 'string' ? hiddenProxy(ctx, proxyId) : undefined;
  if (hidden) return toResponse(hidden, req.url);
  const resolved = await resolveSimulateBody(body, rt.liveSource());
  if (resolved.failure) return toResponse(resolved.failure, req.url);
  return jsonTextResponse(withLiveInfo(await rt.cpu.run('simulate', resolved.body), resolved.live), req.url);
}
