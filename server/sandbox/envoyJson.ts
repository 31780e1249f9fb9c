// Translated resources (proto3 JSON, camelCase) → Envoy JSON (snake_case, "@type" on Anys), as
// /debug/config_dump prints them: done only for the diffs an evaluation returns, not for every proxy.
import { encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import type { ProxyDiff, ResourceType } from './types';

// ztunnel's WDS resources are shown as the proto3 JSON `meshscope ztunnel-config -o json` prints (no Envoy JSON).
const TYPE_URL: Partial<Record<ResourceType, (typeof TYPE)[keyof typeof TYPE]>> = {
  listeners: TYPE.listener,
  routes: TYPE.route,
  clusters: TYPE.cluster,
  endpoints: TYPE.endpoint,
};

function envoy(type: ResourceType, name: string, json: unknown): unknown {
  const url = TYPE_URL[type];
  if (!url) return json;
  try {
    return encodeResource(url, name, json).json;
  } catch {
    return json; // a resource the encoder rejects is a translator bug, reported by the live path; show it as is
  }
}

export function withEnvoyJson(d: ProxyDiff): ProxyDiff {
  return {
    ...d,
    resources: d.resources.map((r) => ({
      ...r,
      ...(r.before !== undefined ? { before: envoy(r.type, r.name, r.before) } : {}),
      ...(r.after !== undefined ? { after: envoy(r.type, r.name, r.after) } : {}),
    })),
  };
}
