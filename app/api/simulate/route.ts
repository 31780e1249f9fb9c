// Thin adapter: POST /api/simulate {proxyId, request} | {dump, request} → the simulator's JSON, computed in
// the CPU pool (server/isolate: time budget, bounded queue; docs/budgets.md), never on the ADS thread.
import { jsonTextResponse, readJsonBody, toResponse } from '@/server/api/http';
import { maxBodyBytes } from '@/server/api/runtimeConfig';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  const { body, error } = await readJsonBody(req, maxBodyBytes(rt.config));
  if (error) return toResponse(error, req.url);
  return jsonTextResponse(await rt.cpu.run('simulate', body), req.url);
}
