// ADS and push settings from the environment (istiod's PILOT_* equivalents), and what tests and benchmarks may
// override in the runtime they create.
import type { DataPlaneOptions } from './demo/dataPlane';
import type { CpuPoolOptions } from './isolate/pool';
import type { PortForwardOptions } from './live/portForwardSource';
import type { AdsLimits } from './xds/limits';
import type { AdsServerOptions } from './xds/server';

/** ADS settings a caller may override (tests, benchmarks); the rest come from the environment. */
export type AdsOverrides = Partial<Pick<AdsServerOptions, 'log' | 'debounceMs' | 'maxDebounceMs' | 'pushConcurrency' | 'limits'>> & {
  /** CPU pool settings (tests: a short budget, a small queue, events). */
  cpu?: Partial<CpuPoolOptions>;
  /** Port-forward limits of `--live-config` (tests: a short timeout, no cache). */
  live?: Omit<PortForwardOptions, 'adminPort'>;
  /** Demo data plane settings (tests: a low rate, a short tick). */
  demo?: Partial<Pick<DataPlaneOptions, 'rate' | 'tickMs' | 'testerPercent' | 'deadlineMs' | 'window'>>;
};

const intEnv = (name: string): number | undefined => {
  const v = process.env[name];
  if (v === undefined || !/^\d+$/.test(v.trim())) return undefined;
  return Number(v.trim());
};

/** ADS limits from the environment (server/xds/limits.ts has the defaults and istiod's equivalents). */
const LIMIT_ENV: ReadonlyArray<[string, keyof AdsLimits]> = [
  ['MESHSCOPE_XDS_MAX_RECV_MSG_SIZE', 'maxRequestBytes'], // istiod ISTIO_GPRC_MAXRECVMSGSIZE
  ['MESHSCOPE_XDS_MAX_SEND_MSG_SIZE', 'maxResponseBytes'],
  ['MESHSCOPE_XDS_MAX_RESOURCE_NAMES', 'maxResourceNames'],
  ['MESHSCOPE_XDS_MAX_NODE_METADATA', 'maxNodeMetadataBytes'],
  ['MESHSCOPE_XDS_SEND_TIMEOUT', 'writeTimeoutMs'], // istiod PILOT_XDS_SEND_TIMEOUT
  ['MESHSCOPE_XDS_STALLED_STREAM_CLOSE', 'stalledStreamCloseMs'],
  ['MESHSCOPE_XDS_MAX_PENDING_SEND', 'maxPendingSendBytes'],
];

/**
 * Push settings (istiod's PILOT_DEBOUNCE_AFTER / PILOT_DEBOUNCE_MAX / PILOT_PUSH_THROTTLE), in ms:
 * MESHSCOPE_DEBOUNCE_AFTER (100), MESHSCOPE_DEBOUNCE_MAX (10000), MESHSCOPE_PUSH_THROTTLE (100); ADS
 * limits (LIMIT_ENV, bytes / counts / ms). The log prints one line per ADS connect and disconnect, and
 * NACKs at a bounded rate (`meshscope serve` shows them).
 */
export function adsOptionsFromEnv(overrides: AdsOverrides): Partial<AdsServerOptions> {
  const limits: Partial<AdsLimits> = {};
  for (const [name, key] of LIMIT_ENV) {
    const v = intEnv(name);
    if (v !== undefined && (v > 0 || key === 'writeTimeoutMs' || key === 'stalledStreamCloseMs' || key === 'maxPendingSendBytes'))
      limits[key] = v;
  }
  const out: Partial<AdsServerOptions> = { log: (line) => console.log(line), limits: { ...limits, ...overrides.limits } };
  const after = intEnv('MESHSCOPE_DEBOUNCE_AFTER');
  const max = intEnv('MESHSCOPE_DEBOUNCE_MAX');
  const throttle = intEnv('MESHSCOPE_PUSH_THROTTLE');
  if (after !== undefined) out.debounceMs = after;
  if (max !== undefined) out.maxDebounceMs = max;
  if (throttle !== undefined && throttle > 0) out.pushConcurrency = throttle;
  const { limits: _limits, demo: _demo, cpu: _cpu, live: _live, ...rest } = overrides;
  return { ...out, ...rest };
}
