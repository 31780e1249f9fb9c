// One proxy's identity as `meshscope proxies` and GET /api/proxies list it (DESIGN.md §3). Its own module,
// without the translator, so the CLI's `proxies` command loads only the model.
import type { MeshSnapshot, ProxyModel } from '../model/mesh';
import type { ProxyKind } from '../model/proxyKinds';

/** Exactly what `meshscope proxies -o json` prints per proxy (DESIGN.md §3). */
export interface ProxyInfo {
  id: string;
  type: ProxyKind;
  namespace: string;
  labels: Record<string, string>;
  ips: string[];
}

export const proxyInfo = (p: ProxyModel): ProxyInfo => ({
  id: p.id,
  type: p.type,
  namespace: p.namespace,
  labels: { ...p.labels },
  ips: [...p.ips],
});

export const listProxyInfo = (s: MeshSnapshot): ProxyInfo[] => s.proxies.map(proxyInfo);
