// HTTPRedirect / HTTPDirectResponse → Envoy route actions (istio route.go:ApplyRedirect, ApplyDirectResponse).
import type {
  DirectResponseActionJson,
  RedirectActionJson,
  RedirectAction_RedirectResponseCodeJson,
} from '../../../gen/envoy/config/route/v3/route_components_pb';
import type { HTTPDirectResponse, HTTPRedirect } from '../../../model/istio';

const CODES: Record<number, RedirectAction_RedirectResponseCodeJson | null> = {
  0: null, // MOVED_PERMANENTLY is the proto default: omitted
  301: null,
  302: 'FOUND',
  303: 'SEE_OTHER',
  307: 'TEMPORARY_REDIRECT',
  308: 'PERMANENT_REDIRECT',
};

/** Undefined redirect (with a message) when the code is unsupported: istiod then leaves the route without action. */
export function translateRedirect(
  r: HTTPRedirect,
  listenerPort: number,
  isTLS: boolean,
): { redirect?: RedirectActionJson; problem?: { field: string; message: string } } {
  const out: RedirectActionJson = {};
  if (r.authority) out.hostRedirect = String(r.authority);
  out.pathRedirect = String(r.uri ?? '');
  if (r.scheme) out.schemeRedirect = String(r.scheme);
  const hasPort = r.port !== undefined || r.derivePort !== undefined;
  if (hasPort) {
    let port = 0;
    if (r.port !== undefined) port = Math.trunc(Number(r.port)) || 0;
    else if (r.derivePort === 'FROM_REQUEST_PORT') port = listenerPort; // FROM_PROTOCOL_DEFAULT: Envoy's default, no port
    const scheme = (typeof r.scheme === 'string' && r.scheme) || (isTLS ? 'https' : 'http');
    if ((port === 80 && scheme === 'http') || (port === 443 && scheme === 'https')) port = 0;
    if (port > 0 && port <= 65535) out.portRedirect = port;
  }
  const code = Math.trunc(Number(r.redirectCode ?? 0));
  if (!(code in CODES))
    return { problem: { field: 'redirectCode', message: `redirect code ${code} is not supported (301, 302, 303, 307, 308)` } };
  const rc = CODES[code];
  if (rc) out.responseCode = rc;
  return { redirect: out };
}

/** Padded standard or URL-safe base64 (what proto3 JSON accepts for bytes). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$|^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;

/** Undefined directResponse (with a problem) when the status is not an HTTP status Envoy accepts. */
export function translateDirectResponse(d: HTTPDirectResponse): {
  directResponse?: DirectResponseActionJson;
  problem?: { field: string; message: string };
} {
  const status = Math.trunc(Number(d.status ?? 0));
  if (!(status >= 200 && status <= 599))
    return { problem: { field: 'status', message: `direct response status ${String(d.status)} must be in [200, 599]` } };
  const out: DirectResponseActionJson = { status };
  let problem: { field: string; message: string } | undefined;
  if (d.body) {
    if (typeof d.body !== 'object') problem = { field: 'body', message: 'body must be an object' };
    else if (d.body.string !== undefined) out.body = { inlineString: String(d.body.string) };
    else if (d.body.bytes !== undefined) {
      const b = String(d.body.bytes).replace(/\s+/g, '');
      if (BASE64.test(b)) out.body = { inlineBytes: b };
      else problem = { field: 'body.bytes', message: 'body.bytes must be base64' };
    }
  }
  return problem ? { directResponse: out, problem } : { directResponse: out };
}
