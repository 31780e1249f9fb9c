// GET /api/proxies/POD.NS/live: the pod's own Envoy config dump (from the runtime's LiveSource: port-forward
// with `serve --live-config`, or an archive) with the same summary tables the proxy page builds from
// meshscope's dump. Failures are classified LiveErrors → 403 / 404 / 502 / 504 `{"error", "stage"}`, never a 500.
import { tablesFromConfigDump, type ProxyTables } from '../envoy/dumpModel/tables';
import { readConfigDump } from '../envoy/dumpReader';
import { liveOff } from '../live/index';
import { isLiveError, type LiveDump, type LiveSource, type LiveSourceKind } from '../live/types';
import type { ApiResult } from './types';

/** `GET /api/proxies/POD.NS/live`. */
export interface LiveResponse {
  proxy: string;
  source: LiveSourceKind;
  fetchedAt: string;
  bytes: number;
  /** Envoy's dump as received. */
  configDump: unknown;
  /** The proxy page's tables over Envoy's dump (server/envoy/dumpModel/tables.ts). */
  tables: ProxyTables;
  /** Problems reading the dump into tables (the dump itself is still returned). */
  errors: string[];
}

/** Every /live and /drift failure: a message and the step that failed (`portforward`, `pod`, `admin`, `timeout`, `proxy`, `config`…). */
export interface LiveErrorBody {
  error: string;
  stage: string;
}

const EMPTY_TABLES: ProxyTables = { listeners: [], routes: [], clusters: [], endpoints: [] };

/** A LiveError (or anything else thrown) as the endpoint's answer: never a 500. */
export function liveFailure(e: unknown): ApiResult<LiveErrorBody> {
  if (isLiveError(e)) return { status: e.status, body: { error: e.message, stage: e.stage } };
  return { status: 502, body: { error: `reading the live config failed: ${(e as Error)?.message ?? String(e)}`, stage: 'proxy' } };
}

/** Reads POD.NS's dump from `source`, or the classified failure. */
export async function fetchLive(
  source: LiveSource | undefined,
  id: string,
  opts: { withIstiod?: boolean } = {},
): Promise<{ dump: LiveDump } | { failure: ApiResult<LiveErrorBody> }> {
  if (!source) return { failure: liveFailure(liveOff()) };
  try {
    return { dump: await source.fetch(id, opts) };
  } catch (e) {
    return { failure: liveFailure(e) };
  }
}

export function liveBody(dump: LiveDump): LiveResponse {
  const errors: string[] = [];
  let tables = EMPTY_TABLES;
  const configs = (dump.configDump as { configs?: unknown } | null)?.configs;
  if (!Array.isArray(configs)) errors.push('the dump has no "configs" list: not an Envoy /config_dump');
  else {
    try {
      errors.push(...readConfigDump(dump.configDump).errors);
      tables = tablesFromConfigDump(dump.configDump);
    } catch (e) {
      errors.push(`the dump could not be read into tables: ${(e as Error).message}`);
    }
  }
  return {
    proxy: dump.proxy,
    source: dump.source,
    fetchedAt: dump.fetchedAt,
    bytes: dump.bytes,
    configDump: dump.configDump,
    tables,
    errors,
  };
}

/** `GET /api/proxies/POD.NS/live`. */
export async function proxyLive(source: LiveSource | undefined, id: string): Promise<ApiResult<LiveResponse | LiveErrorBody>> {
  const got = await fetchLive(source, id);
  if ('failure' in got) return got.failure;
  return { status: 200, body: liveBody(got.dump) };
}
