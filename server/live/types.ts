// The agreed interface between the live-dump sources (port-forward: "live"; bug-report / must-gather
// archives: "drift") and the /live and /drift endpoints. Types only; no behaviour lives here.

/** Where a pod's Envoy config dump came from. */
export type LiveSourceKind = 'portforward' | 'bug-report' | 'must-gather' | 'upload';

/** One pod's Envoy config dump as received (and, optionally, istiod's view of the same proxy). */
export interface LiveDump {
  /** POD.NS */
  proxy: string;
  source: LiveSourceKind;
  /** ISO 8601 time the dump was read (fetched, or the archive was opened). */
  fetchedAt: string;
  /** Size in bytes of the dump body as received. */
  bytes: number;
  /** Envoy's /config_dump (with EDS when available), parsed JSON, untouched. */
  configDump: unknown;
  /** istiod's /debug/config_dump?proxyID=POD.NS, when asked for (`withIstiod`) and available. */
  istiodDump?: unknown;
}

export interface LiveFetchOptions {
  /** Also fetch istiod's view of the proxy (the third side of /drift?with=istiod). */
  withIstiod?: boolean;
}

export interface LiveSource {
  /** Fetches POD.NS's dump; rejects with a LiveError (never a bare Error) on a classified failure. */
  fetch(proxyId: string, opts?: LiveFetchOptions): Promise<LiveDump>;
}

/** HTTP status a LiveError maps to: forbidden, not found, upstream refused/failed, upstream timeout. */
export type LiveErrorStatus = 403 | 404 | 502 | 504;

/**
 * Which step failed: `portforward` (the API server's pods/portforward), `pod` (lookup / not running),
 * `admin` (Envoy's admin answered badly or refused), `timeout`, `proxy` (unknown to the source),
 * `istiod`, `archive`, `limit` (byte cap), `config` (--live-config off)… never empty.
 */
export type LiveErrorStage = 'portforward' | 'pod' | 'admin' | 'timeout' | 'proxy' | 'istiod' | 'archive' | 'limit' | 'config';

/** A classified live-dump failure; the endpoints answer `status` with `{"error": message, "stage"}`. */
export class LiveError extends Error {
  readonly status: LiveErrorStatus;
  readonly stage: LiveErrorStage;
  constructor(status: LiveErrorStatus, stage: LiveErrorStage, message: string) {
    super(message);
    this.name = 'LiveError';
    this.status = status;
    this.stage = stage;
  }
}

const STATUSES: readonly number[] = [403, 404, 502, 504];

/**
 * By shape, not only `instanceof`: Next bundles the runtime (instrumentation) and the route handlers apart, so
 * a LiveError thrown by the runtime's source (the archive's) is of another copy of this class than the
 * handler's; `instanceof` alone made a 404 `proxy` a 502.
 */
export function isLiveError(err: unknown): err is LiveError {
  if (err instanceof LiveError) return true;
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Record<string, unknown>;
  return (
    e['name'] === 'LiveError' &&
    typeof e['message'] === 'string' &&
    typeof e['stage'] === 'string' &&
    e['stage'] !== '' &&
    STATUSES.includes(e['status'] as number)
  );
}
