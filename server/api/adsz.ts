// /debug/adsz: the connected xDS clients, in istiod's shape (pilot/pkg/xds/debug.go adsz: AdsClients
// {totalClients, clients[{connectionId, connectedAt, address, labels, metadata, locality, watches}]}),
// plus what meshscope knows beyond it per client: proxy id, flavour (envoy / proxyless grpc), stream mode,
// pushes, and the sync state, versions and last NACK per type. `?proxyID=POD.NS` keeps that proxy only.
// Bounded (issue 14 item 7: 2,000 clients made it a 315 MB response): `?page=N` (from 1) and `?limit=N`
// (default 100, at most 1,000) page the clients; per client, watched names are cut at 100 per type and
// metadata strings at 1,024 characters (lists at 100 entries). The response says what was left out.
import type { ConnectionStatus } from '../xds/types';
import { fail, ok, type ApiResult } from './types';

export const ADSZ_DEFAULT_LIMIT = 100;
export const ADSZ_MAX_LIMIT = 1000;
const MAX_NAMES = 100;
const MAX_STRING = 1024;
const MAX_ENTRIES = 100;

export interface AdsClientJson {
  connectionId: string;
  connectedAt: string;
  address: string;
  labels: Record<string, string>;
  metadata: Record<string, unknown>;
  locality?: string;
  watches: Record<string, string[]>;
  proxy: string;
  flavour: string;
  mode: 'sotw' | 'delta';
  pushes: number;
  sync: Record<string, { state: string; sentVersion?: string; ackedVersion?: string; lastNack?: string }>;
  /** Names left out of `watches`, per type URL. */
  watchesOmitted?: Record<string, number>;
  /** Metadata strings, list entries and object keys cut from `metadata`. */
  metadataOmitted?: number;
  matchedBy?: string;
  backpressure?: ConnectionStatus['backpressure'];
}

export interface AdsClientsJson {
  totalClients: number;
  /** 1-based page and page size; `clients` holds at most `limit` entries. */
  page: number;
  limit: number;
  /** Clients not on this page (totalClients − clients.length). */
  omittedClients: number;
  clients: AdsClientJson[];
}

/** Cuts long strings, lists and objects in a JSON value; counts what was cut. */
function boundJson(v: unknown, cut: { n: number }, depth = 0): unknown {
  if (typeof v === 'string') {
    if (v.length <= MAX_STRING) return v;
    cut.n++;
    return `${v.slice(0, MAX_STRING)}… (${v.length - MAX_STRING} more characters)`;
  }
  if (v === null || typeof v !== 'object') return v;
  if (depth > 8) {
    cut.n++;
    return '…';
  }
  if (Array.isArray(v)) {
    if (v.length > MAX_ENTRIES) cut.n += v.length - MAX_ENTRIES;
    return v.slice(0, MAX_ENTRIES).map((x) => boundJson(x, cut, depth + 1));
  }
  const entries = Object.entries(v);
  if (entries.length > MAX_ENTRIES) cut.n += entries.length - MAX_ENTRIES;
  return Object.fromEntries(entries.slice(0, MAX_ENTRIES).map(([k, x]) => [k, boundJson(x, cut, depth + 1)]));
}

function clientJson(c: ConnectionStatus): AdsClientJson {
  const cut = { n: 0 };
  const watches: Record<string, string[]> = {};
  const watchesOmitted: Record<string, number> = {};
  const sync: AdsClientJson['sync'] = {};
  for (const t of c.types) {
    const names = t.subscribed === '*' ? ['*'] : t.subscribed;
    watches[t.typeUrl] = names.slice(0, MAX_NAMES);
    if (names.length > MAX_NAMES) watchesOmitted[t.typeUrl] = names.length - MAX_NAMES;
    const s: AdsClientJson['sync'][string] = { state: t.state };
    if (t.sentVersion !== undefined) s.sentVersion = t.sentVersion;
    if (t.ackedVersion !== undefined) s.ackedVersion = t.ackedVersion;
    if (t.lastNack) s.lastNack = t.lastNack.message;
    sync[t.typeUrl] = s;
  }
  const out: AdsClientJson = {
    connectionId: c.id,
    connectedAt: c.connectedAt,
    address: c.client.peer,
    labels: boundJson(c.client.labels, cut) as Record<string, string>,
    metadata: boundJson(c.client.metadata, cut) as Record<string, unknown>,
    watches,
    proxy: c.client.proxyId,
    flavour: c.client.flavour,
    mode: c.mode,
    pushes: c.pushCount,
    sync,
  };
  const l = c.client.locality;
  if (l && (l.region || l.zone || l.subZone)) out.locality = [l.region, l.zone, l.subZone].join('/');
  if (Object.keys(watchesOmitted).length > 0) out.watchesOmitted = watchesOmitted;
  if (cut.n > 0) out.metadataOmitted = cut.n;
  if (c.matchedBy) out.matchedBy = c.matchedBy;
  if (c.backpressure) out.backpressure = c.backpressure;
  return out;
}

/** A positive integer query value, its default when absent, or an error message. */
function positiveInt(name: string, v: string | null | undefined, dflt: number, max: number): number | string {
  if (v === null || v === undefined || v === '') return dflt;
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1) return `${name} must be a positive integer, got ${JSON.stringify(v.slice(0, 40))}`;
  return Math.min(Number(v), max);
}

export function adsz(
  connections: readonly ConnectionStatus[],
  proxyId?: string | null,
  paging: { page?: string | null; limit?: string | null } = {},
): ApiResult<AdsClientsJson | { error: string }> {
  const page = positiveInt('page', paging.page, 1, Number.MAX_SAFE_INTEGER);
  const limit = positiveInt('limit', paging.limit, ADSZ_DEFAULT_LIMIT, ADSZ_MAX_LIMIT);
  if (typeof page === 'string') return fail(400, page);
  if (typeof limit === 'string') return fail(400, limit);
  const selected = proxyId ? connections.filter((c) => c.client.proxyId === proxyId || c.client.nodeId === proxyId) : connections;
  const shown = selected.slice((page - 1) * limit, page * limit);
  return ok({ totalClients: selected.length, page, limit, omittedClients: selected.length - shown.length, clients: shown.map(clientJson) });
}
