// Thin adapter: GET /debug/adsz[?proxyID=POD.NS] (istiod's AdsClients: the connected xDS clients).
import { adsz } from '@/server/api/adsz';
import { toResponse } from '@/server/api/http';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const rt = await readyRuntime();
  return toResponse(adsz(rt.adsConnections(), new URL(req.url).searchParams.get('proxyID')), req.url);
}
