// Reading an uploaded or pasted Envoy /config_dump: JSON text → the dump, or a message saying what is
// wrong and what to do. Accepts `{configs: [...]}` (Envoy admin, istiod /debug/config_dump, istioctl
// `proxy-config all -o json`) and a bare configs array. Pure; never throws.
import { readConfigDump } from '@/server/envoy/dumpReader';

export type ParsedDump =
  | { ok: true; dump: unknown; warnings: string[]; counts: Record<'listeners' | 'routes' | 'clusters' | 'endpoints', number> }
  | { ok: false; error: string };

export function parseDumpText(text: string): ParsedDump {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, error: 'Nothing to open: choose a file, drop one here, or paste the JSON of an Envoy /config_dump.' };
  let json: unknown;
  try {
    json = JSON.parse(trimmed) as unknown;
  } catch (e) {
    return {
      ok: false,
      error: `This is not JSON (${(e as Error).message}). Get the dump with \`kubectl exec POD -c istio-proxy -- pilot-agent request GET config_dump\` or \`istioctl proxy-config all POD -o json\`.`,
    };
  }
  const dump = Array.isArray(json) ? { configs: json } : json;
  const { config, errors } = readConfigDump(dump);
  const counts = {
    listeners: config.listeners.length,
    routes: config.routes.length,
    clusters: config.clusters.length,
    endpoints: config.endpoints.length,
  };
  if (errors.length && counts.listeners + counts.routes + counts.clusters + counts.endpoints === 0)
    return {
      ok: false,
      error: `This JSON is not an Envoy config dump: ${errors.join('; ')}. Expected {"configs": [{"@type": "type.googleapis.com/envoy.admin.v3.ListenersConfigDump", …}, …]}.`,
    };
  return { ok: true, dump, warnings: errors, counts };
}
