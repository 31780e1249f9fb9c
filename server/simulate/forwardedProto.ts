// The x-forwarded-proto (and HTTP/1 :scheme) the router sees after the HTTP connection manager has mutated
// the request (Envoy conn_manager_utility.cc mutateRequestHeaders; docs http_conn_man/headers#x-forwarded-proto):
// a downstream x-forwarded-proto is trusted only when xff_num_trusted_hops is non-zero; otherwise it and
// :scheme are set to http or https by whether the downstream connection is TLS. An HTTP/1.1 request carries
// no :scheme, so Envoy derives it from x-forwarded-proto. The router then decides require_tls on
// x-forwarded-proto (VirtualHostImpl::getRouteFromEntries) and builds redirects with :scheme (Utility::newUri).
import { num, type J } from './json';
import type { SimCtx } from './types';

/**
 * `hcm` undefined (a route configuration walked on its own, no connection manager known): a given
 * x-forwarded-proto is taken as it is.
 */
export function applyForwardedProto(hcm: J | undefined, ctx: SimCtx): SimCtx {
  const connection = ctx.tls === 'plaintext' ? 'http' : 'https';
  const given = ctx.headers.get('x-forwarded-proto');
  const trusted = hcm ? (num(hcm, 'xff_num_trusted_hops') ?? 0) > 0 : true;
  const xfp = trusted && given ? given : connection;
  const headers = new Map(ctx.headers);
  headers.set('x-forwarded-proto', xfp);
  if (!trusted) headers.set(':scheme', connection);
  else if (ctx.protocol !== 'http2') headers.set(':scheme', xfp);
  return { ...ctx, headers };
}

/** The scheme of the request as the router sees it. */
export const requestScheme = (ctx: SimCtx): string => ctx.headers.get(':scheme') ?? (ctx.tls === 'plaintext' ? 'http' : 'https');
