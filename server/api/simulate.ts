// POST /api/simulate: `{proxyId, request}` (the proxy's current config, as /debug/config_dump prints it) or
// `{dump, request}` (any Envoy config_dump, e.g. an uploaded one) → the simulator's JSON (DESIGN.md §3
// `meshscope simulate`). A request that routes nowhere is still 200 with `{"error": …}` (Istio's wording);
// only unusable input is a 4xx. `{proxyId, request, config: "live"}` (issue 21 §4, "trace this request on
// meshscope's config and on Envoy's") simulates over the pod's own Envoy dump instead: the route adapter reads
// it from the LiveSource first (simulateLive.ts) and hands this module the `{dump, request}` form.
import { z } from 'zod';
import { readConfigDump } from '../envoy/dumpReader';
import { simulateProxy } from '../simulateMesh/simulateProxy';
import { simulate, type SimRequest, type SimResult } from '../simulate/index';
import { simRequestSchema } from '../simulate/requestSchema';
import type { LiveSourceKind } from '../live/types';
import { fail, ok, type ApiContext, type ApiResult } from './types';

/** Which config a `{proxyId}` request is simulated on: meshscope's translation (the default) or the pod's own Envoy's. */
export const SIMULATE_SIDES = ['meshscope', 'live'] as const;
export type SimulateSide = (typeof SIMULATE_SIDES)[number];

export const ProxyBodySchema = z
  .object({ proxyId: z.string().min(1), request: simRequestSchema, config: z.enum(SIMULATE_SIDES).optional() })
  .strict();
const DumpBodySchema = z.object({ dump: z.unknown(), request: simRequestSchema }).strict();

export type SimulateBody = { proxyId: string; request: SimRequest; config?: SimulateSide } | { dump: unknown; request: SimRequest };

/** With `config: "live"`: where the pod's dump came from (as `GET /api/proxies/POD.NS/live` says). */
export interface SimulateLiveInfo {
  source: LiveSourceKind;
  fetchedAt: string;
  bytes: number;
}

/** What the endpoint answers: the simulation, plus problems met reading an uploaded (or the pod's) dump. */
export type SimulateResponse = SimResult & { dumpErrors?: string[]; live?: SimulateLiveInfo };

export function issues(e: z.ZodError): string {
  return e.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
}

/** Drops absent optional fields (zod keeps `undefined` keys out already; this narrows the type). */
function toSimRequest(r: z.infer<typeof simRequestSchema>): SimRequest {
  const out: SimRequest = { mode: r.mode, port: r.port };
  for (const [k, v] of Object.entries(r)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}

export function simulateRequest(ctx: ApiContext, body: unknown): ApiResult<SimulateResponse | { error: string }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail(400, 'body must be a JSON object {proxyId, request} or {dump, request}');
  // Pick the form by its key first, so that validation errors name the field that is wrong.
  const parsed = 'proxyId' in body ? ProxyBodySchema.safeParse(body) : DumpBodySchema.safeParse(body);
  if (!parsed.success) return fail(400, `invalid simulate request: ${issues(parsed.error)}`);
  const request = toSimRequest(parsed.data.request);
  if ('proxyId' in parsed.data) {
    const id = parsed.data.proxyId;
    if (parsed.data.config === 'live')
      return fail(400, 'config "live" is answered by POST /api/simulate only (it reads the pod\'s dump first)');
    const result = simulateProxy(ctx.snapshot, id, request, { options: ctx.options, ...(ctx.cache ? { cache: ctx.cache } : {}) });
    return result ? ok(result) : fail(404, `proxy "${id}" not found`);
  }
  if (parsed.data.dump === undefined || parsed.data.dump === null) return fail(400, 'dump is required (an Envoy config_dump JSON)');
  const { config, errors } = readConfigDump(parsed.data.dump);
  const nothing = config.listeners.length + config.routes.length + config.clusters.length + config.endpoints.length === 0;
  if (nothing && errors.length > 0) return fail(400, `unusable config dump: ${errors.join('; ')}`);
  const result: SimulateResponse = simulate(config, request);
  if (errors.length > 0) result.dumpErrors = errors;
  return ok(result);
}
