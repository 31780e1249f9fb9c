// Defensive readers over Envoy JSON (generated or uploaded): wrong shapes read as empty, never throw.
export type JsonObj = Record<string, unknown>;

export const obj = (v: unknown): JsonObj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObj) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : undefined;

/** Short name of an `@type` URL: `...HttpConnectionManager` → `HttpConnectionManager`. */
export const shortType = (typeUrl: string | undefined): string | undefined => typeUrl?.slice(typeUrl.lastIndexOf('.') + 1);

/** `filter_metadata.istio.config` (Istio's provenance key), if any. */
export const istioSource = (resource: unknown): string | undefined =>
  str(obj(obj(obj(obj(resource).metadata).filter_metadata).istio).config);

/** `socket_address` → `ip:port`; pipe / internal addresses as Envoy names them. */
export function formatAddress(address: unknown): string {
  const a = obj(address);
  const sock = obj(a.socket_address);
  if (Object.keys(sock).length) {
    const port = num(sock.port_value);
    return `${str(sock.address) ?? ''}:${port ?? str(sock.named_port) ?? 0}`;
  }
  const internal = obj(a.envoy_internal_address);
  if (Object.keys(internal).length) return `internal:${str(internal.server_listener_name) ?? ''}`;
  const pipe = obj(a.pipe);
  if (Object.keys(pipe).length) return `unix:${str(pipe.path) ?? ''}`;
  return '';
}
