// GET /api/proxies/POD.NS/drift[?with=istiod][&bodies=0]: meshscope's translation of the pod (expected, from the current
// snapshot: an edited VirtualService shows at once) against the pod's own Envoy dump (actual, from the
// runtime's LiveSource), compared by the drift engine (server/drift). `?with=istiod` adds the third side,
// istiod's /debug/config_dump for the proxy: `istiod.meshscope` (meshscope → istiod: a meshscope gap or a
// version skew) and `istiod.envoy` (istiod → Envoy: a NACK, a stale push, an EnvoyFilter applied on the pod).
// `bodies=0` leaves the resource bodies out (the proxies table's drift column). Same failures as /live: 403 / 404 / 502 / 504 `{"error", "stage"}`, never a 500.
import { computeDrift, type DriftBody, DriftInputError } from '../drift/index';
import { configDumpFor } from '../pipeline/configDump';
import { fetchLive, type LiveErrorBody } from './live';
import type { LiveSource } from '../live/types';
import type { ApiContext, ApiResult } from './types';

/** `GET /api/proxies/POD.NS/drift[?with=istiod]`. */
export type DriftResponse = { proxy: string } & DriftBody & {
    /** With `?with=istiod`: meshscope → istiod and istiod → Envoy. */
    istiod?: { meshscope: DriftBody; envoy: DriftBody };
  };

const failure = (status: number, stage: string, error: string): ApiResult<LiveErrorBody> => ({ status, body: { error, stage } });

function compare(
  expected: unknown,
  actual: unknown,
  sides: [string, string],
  withoutBodies: boolean,
): DriftBody | ApiResult<LiveErrorBody> {
  try {
    return computeDrift(expected, actual, withoutBodies ? { withoutBodies } : {});
  } catch (e) {
    if (e instanceof DriftInputError) {
      const who = e.side === 'expected' ? sides[0] : sides[1];
      return failure(502, who === 'meshscope' ? 'translate' : who, `${who}'s config dump cannot be compared: ${e.message}`);
    }
    return failure(502, 'drift', `comparing the config dumps failed: ${(e as Error).message}`);
  }
}

const isFailure = (x: DriftBody | ApiResult<LiveErrorBody>): x is ApiResult<LiveErrorBody> => 'status' in x && 'body' in x;

export async function proxyDrift(
  ctx: ApiContext,
  source: LiveSource | undefined,
  id: string,
  opts: { withIstiod?: boolean; withoutBodies?: boolean } = {},
): Promise<ApiResult<DriftResponse | LiveErrorBody>> {
  const bare = opts.withoutBodies === true;
  if (source && !ctx.snapshot.proxiesById.has(id))
    return failure(404, 'proxy', `proxy "${id}" is not in meshscope's mesh (snapshot v${ctx.snapshot.version})`);
  const got = await fetchLive(source, id, opts.withIstiod ? { withIstiod: true } : {});
  if ('failure' in got) return got.failure;
  // The snapshot as it is now (not when the fetch began): an edit made meanwhile is what the user expects.
  const mine = configDumpFor(ctx.snapshot, id, { options: ctx.options, ...(ctx.cache ? { cache: ctx.cache } : {}) });
  if (!mine) return failure(404, 'proxy', `proxy "${id}" is not in meshscope's mesh`);
  const drift = compare(mine.dump, got.dump.configDump, ['meshscope', 'admin'], bare);
  if (isFailure(drift)) return drift;
  const body: DriftResponse = { proxy: id, ...drift };
  if (opts.withIstiod) {
    if (got.dump.istiodDump === undefined) return failure(502, 'istiod', `no istiod view of ${id} was read`);
    const meshscope = compare(mine.dump, got.dump.istiodDump, ['meshscope', 'istiod'], bare);
    if (isFailure(meshscope)) return meshscope;
    const envoy = compare(got.dump.istiodDump, got.dump.configDump, ['istiod', 'admin'], bare);
    if (isFailure(envoy)) return envoy;
    body.istiod = { meshscope, envoy };
  }
  return { status: 200, body };
}
