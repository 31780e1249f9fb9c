// Connection pool settings → circuit breakers, connect timeout, TCP keepalive
// (cluster_traffic_policy.go:applyConnectionPool, getDefaultCircuitBreakerThresholds, applyTCPKeepalive).
// HTTP idle timeout, max requests per connection, max connection duration, max concurrent streams,
// h2UpgradePolicy and useClientProtocol live in HttpProtocolOptions (typed_extension_protocol_options),
// which the generated registry cannot encode: they are skipped.
import type { ConnectionPoolSettings } from '../../../../model/istio';
import { durationTextSeconds, normalizeDurationText } from '../../../../lib/duration';
import { reportBadDuration, type MutableCluster, type PolicyContext } from './context';
import type { Located } from './select';

const MAX_UINT32 = 4294967295;

/** Istio's default thresholds: every limit at max uint32, track_remaining on. */
export function defaultThresholds() {
  return {
    maxConnections: MAX_UINT32,
    maxPendingRequests: MAX_UINT32,
    maxRequests: MAX_UINT32,
    maxRetries: MAX_UINT32,
    trackRemaining: true,
  };
}

/**
 * Applies connection pool settings (or the defaults when none): connect timeout = mesh default unless
 * tcp.connectTimeout; positive limits replace the defaults (a zero cannot be told from unset, as in Istio).
 */
export function applyConnectionPool(
  c: MutableCluster,
  pool: Located<ConnectionPoolSettings> | undefined,
  meshConnectTimeout: string,
  ctx: PolicyContext,
) {
  const t = defaultThresholds();
  const s = pool?.value ?? {};
  const path = pool?.path ?? '';
  if (s.http) {
    if ((s.http.http2MaxRequests ?? 0) > 0) t.maxRequests = s.http.http2MaxRequests!;
    if ((s.http.http1MaxPendingRequests ?? 0) > 0) t.maxPendingRequests = s.http.http1MaxPendingRequests!;
    if ((s.http.maxRetries ?? 0) > 0) t.maxRetries = s.http.maxRetries!;
  }
  c.connectTimeout = meshConnectTimeout;
  if (s.tcp) {
    if (s.tcp.connectTimeout !== undefined) {
      const d = normalizeDurationText(s.tcp.connectTimeout);
      if (d === undefined) reportBadDuration(ctx, `${path}.tcp.connectTimeout`, s.tcp.connectTimeout);
      else c.connectTimeout = d;
    }
    if ((s.tcp.maxConnections ?? 0) > 0) t.maxConnections = s.tcp.maxConnections!;
    const ka = s.tcp.tcpKeepalive;
    if (ka) {
      const tcpKeepalive: { keepaliveProbes?: number; keepaliveTime?: number; keepaliveInterval?: number } = {};
      if ((ka.probes ?? 0) > 0) tcpKeepalive.keepaliveProbes = ka.probes!;
      for (const [field, key] of [
        ['time', 'keepaliveTime'],
        ['interval', 'keepaliveInterval'],
      ] as const) {
        const v = ka[field];
        if (v === undefined) continue;
        const secs = durationTextSeconds(v);
        if (secs === undefined) reportBadDuration(ctx, `${path}.tcp.tcpKeepalive.${field}`, v);
        else tcpKeepalive[key] = secs;
      }
      c.upstreamConnectionOptions = { tcpKeepalive };
    }
  }
  c.circuitBreakers = { thresholds: [t] };
}
