// A request check from the sandbox's small form: which proxy sends it, and the request the simulator walks
// (outbound through a sidecar, or into a gateway). Cluster names are shortened for display.
import type { ProxySummary } from '@/server/api/contract';
import type { RequestCheck } from '@/server/sandbox/types';

export interface CheckForm {
  proxy: string;
  method: string;
  /** `reviews:9080` (port defaults to 80). */
  host: string;
  path: string;
  /** Optional `name: value`. */
  header: string;
}

/** The label people use for a proxy: its `app` label, else the pod name. */
export function proxyLabel(id: string, proxies: readonly ProxySummary[]): string {
  const p = proxies.find((x) => x.id === id);
  return p?.labels?.app ?? id.split('.')[0] ?? id;
}

export function checkFromForm(f: CheckForm, proxies: readonly ProxySummary[]): RequestCheck | undefined {
  const m = /^([^\s:/]+)(?::(\d{1,5}))?$/.exec(f.host.trim());
  if (!f.proxy || !m) return undefined;
  const port = m[2] ? Number(m[2]) : 80;
  if (port < 1 || port > 65535) return undefined;
  const path = f.path.trim().startsWith('/') ? f.path.trim() : `/${f.path.trim()}`;
  const router = proxies.find((p) => p.id === f.proxy)?.type === 'router';
  const request: RequestCheck['request'] = { mode: router ? 'gateway' : 'outbound', port, host: f.host.trim(), path, method: f.method };
  const h = /^([^:\s]+)\s*:\s*(.*)$/.exec(f.header.trim());
  if (h) request.headers = { [(h[1] ?? '').toLowerCase()]: h[2] ?? '' };
  const name = `${proxyLabel(f.proxy, proxies)} → ${f.method} ${f.host.trim()}${path}${h ? ` (${h[1]}: ${h[2]})` : ''}`;
  return { name, proxy: f.proxy, request };
}

/** `outbound|9080|v1|reviews.default.svc.cluster.local` → `reviews.default v1`; other names as they are. */
export function clusterLabel(name: string): string {
  const parts = name.split('|');
  if (parts.length !== 4) return name;
  const host = (parts[3] ?? '').replace(/\.svc\.cluster\.local$/, '');
  return [host, parts[2]].filter((x) => x).join(' ');
}
