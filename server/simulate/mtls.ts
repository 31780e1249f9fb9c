// mTLS on the server side of a filter chain, as Istio's simulator judges it (pilot/pkg/simulation/traffic.go
// requiresMTLS: a DownstreamTlsContext whose first certificate is the workload's SDS `default` and that requires
// a client certificate), and the explanation when a plaintext request finds only TLS chains on its port.
import { arr, bool, num, obj, objs, str, type J } from './json';
import { terminatesTls } from './http';
import type { SimCtx } from './types';

export function requiresMtls(chain: J): boolean {
  if (!terminatesTls(chain)) return false;
  const ctx = obj(obj(chain, 'transport_socket'), 'typed_config');
  const first = objs(obj(ctx, 'common_tls_context'), 'tls_certificate_sds_secret_configs')[0];
  return str(first, 'name') === 'default' && bool(ctx, 'require_client_certificate') === true;
}

/**
 * A plaintext request whose port has chains, all of them expecting TLS (PeerAuthentication STRICT): say so,
 * since "no filter chains matched" alone does not tell a user that the port wants mTLS.
 */
export function tlsOnlyNote(listener: J, ctx: SimCtx): string | undefined {
  if (ctx.tls !== 'plaintext') return undefined;
  const onPort = objs(listener, 'filter_chains').filter((c) => num(obj(c, 'filter_chain_match'), 'destination_port') === ctx.port);
  if (onPort.length === 0) return undefined;
  const tlsOnly = onPort.every((c) => str(obj(c, 'filter_chain_match'), 'transport_protocol') === 'tls');
  if (!tlsOnly) return undefined;
  const mtls = onPort.some(requiresMtls);
  const alpn = [...new Set(onPort.flatMap((c) => arr(obj(c, 'filter_chain_match'), 'application_protocols').map(String)))];
  return (
    `port ${ctx.port} accepts only TLS${mtls ? ' from Istio mTLS clients (PeerAuthentication mode STRICT)' : ''}: its filter chains all ` +
    `match transport_protocol "tls"${alpn.length ? ` with ALPN ${JSON.stringify(alpn)}` : ''}, and a plaintext request is "raw_buffer"`
  );
}
