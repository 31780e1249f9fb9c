// /debug/adsz: the connected xDS clients, in istiod's shape (pilot/pkg/xds/debug.go adsz: AdsClients
// {totalClients, clients[{connectionId, connectedAt, address, labels, metadata, locality, watches}]}),
// plus what meshscope knows beyond it per client: proxy id, flavour (envoy / proxyless grpc), stream mode,
// pushes, and the sync state, versions and last NACK per type. `?proxyID=POD.NS` keeps that proxy only.
import type { ConnectionStatus } from '../xds/types';
import { ok, type ApiResult } from './types';

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
}

export interface AdsClientsJson {
  totalClients: number;
  clients: AdsClientJson[];
}

function clientJson(c: ConnectionStatus): AdsClientJson {
  const watches: Record<string, string[]> = {};
  const sync: AdsClientJson['sync'] = {};
  for (const t of c.types) {
    watches[t.typeUrl] = t.subscribed === '*' ? ['*'] : [...t.subscribed];
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
    labels: { ...c.client.labels },
    metadata: { ...c.client.metadata },
    watches,
    proxy: c.client.proxyId,
    flavour: c.client.flavour,
    mode: c.mode,
    pushes: c.pushCount,
    sync,
  };
  const l = c.client.locality;
  if (l && (l.region || l.zone || l.subZone)) out.locality = [l.region, l.zone, l.subZone].join('/');
  return out;
}

export function adsz(connections: readonly ConnectionStatus[], proxyId?: string | null): ApiResult<AdsClientsJson> {
  const selected = proxyId ? connections.filter((c) => c.client.proxyId === proxyId || c.client.nodeId === proxyId) : connections;
  return ok({ totalClients: selected.length, clients: selected.map(clientJson) });
}
