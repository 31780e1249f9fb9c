// Defensive readers over Envoy JSON (generated or uploaded): wrong shapes read as empty, never throw.
import { asArray, asNumber, asObject, asString, type JsonObject } from '../../lib/json';

export type JsonObj = JsonObject;
export { asArray as arr, asNumber as num, asObject as obj, asString as str };

/** Short name of an `@type` URL: `...HttpConnectionManager` → `HttpConnectionManager`. */
export const shortType = (typeUrl: string | undefined): string | undefined => typeUrl?.slice(typeUrl.lastIndexOf('.') + 1);

/** `filter_metadata.istio.config` (Istio's provenance key), if any. */
export const istioSource = (resource: unknown): string | undefined =>
  asString(asObject(asObject(asObject(asObject(resource).metadata).filter_metadata).istio).config);

/** `socket_address` → `ip:port`; pipe / internal addresses as Envoy names them. */
export function formatAddress(address: unknown): string {
  const a = asObject(address);
  const sock = asObject(a.socket_address);
  if (Object.keys(sock).length) {
    const port = asNumber(sock.port_value);
    return `${asString(sock.address) ?? ''}:${port ?? asString(sock.named_port) ?? 0}`;
  }
  const internal = asObject(a.envoy_internal_address);
  if (Object.keys(internal).length) return `internal:${asString(internal.server_listener_name) ?? ''}`;
  const pipe = asObject(a.pipe);
  if (Object.keys(pipe).length) return `unix:${asString(pipe.path) ?? ''}`;
  return '';
}
