// The ztunnel view in a draft's blast radius: under the ambient profile every ztunnel is sent the same WDS
// (translate/ztunnel buildZtunnelView: istio.workload.Address for every Workload and Service,
// istio.security.Authorization for every converted policy), so a draft that changes what ztunnel is told — a
// `use-waypoint` label (the Service's or Workload's `waypoint`), a waypoint Gateway (its address), a pod, a selector
// AuthorizationPolicy — shows as one entry, `ztunnel`, with the Address / Authorization resources that change
// (the same resources the Delta ADS server would resend). Pure.
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import { buildZtunnelView, type ZtunnelView } from '../translate/ztunnel/index';
import type { BlastRadiusEntry, ProxyDiff, ResourceChange, ResourceType } from './types';

/** The blast-radius id of the shared ztunnel view. */
export const ZTUNNEL_ENTRY = 'ztunnel';

type Json = Record<string, unknown>;

interface Keyed {
  type: ResourceType;
  kind: 'workload' | 'service' | 'policy';
  key: string;
  label: string;
  json: Json;
}

function keyed(v: ZtunnelView): Map<string, Keyed> {
  const out = new Map<string, Keyed>();
  for (const w of v.workloads)
    out.set(`w/${w.uid}`, {
      type: 'addresses',
      kind: 'workload',
      key: w.uid,
      label: `${w['namespace'] ?? ''}/${w['name'] ?? w.uid}`,
      json: w,
    });
  for (const s of v.services) {
    const key = `${s.namespace}/${s.hostname}`;
    out.set(`s/${key}`, { type: 'addresses', kind: 'service', key, label: key, json: s });
  }
  for (const p of v.policies) {
    const key = `${p['namespace'] ?? ''}/${p['name'] ?? ''}`;
    out.set(`p/${key}`, { type: 'authorizations', kind: 'policy', key, label: key, json: p as Json });
  }
  return out;
}

/** The text of a GatewayAddress as the ztunnel table prints it. */
function waypointText(w: unknown): string {
  if (!w || typeof w !== 'object') return 'none';
  const g = w as { hostname?: { namespace?: string; hostname?: string }; address?: unknown };
  if (g.hostname) return `${g.hostname.namespace}/${g.hostname.hostname}`;
  return typeof g.address === 'string' ? g.address : JSON.stringify(g.address);
}

function changedFields(before: Json, after: Json): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

function describe(k: Keyed, change: ResourceChange['change'], before?: Json, after?: Json): string {
  if (change !== 'changed') return `${change === 'added' ? 'new' : 'removed'} ${k.kind} ${k.label}`;
  const fields = changedFields(before!, after!);
  const parts = fields.map((f) =>
    f === 'waypoint' ? `waypoint ${waypointText(before!['waypoint'])} → ${waypointText(after!['waypoint'])}` : f,
  );
  return `${k.kind} ${k.label}: ${parts.join(', ')}`;
}

/** The ztunnel entry and its diff, or undefined when the draft does not change what ztunnel is sent. */
export function ztunnelDelta(
  base: MeshSnapshot,
  draft: MeshSnapshot,
  options: TranslateOptions,
  draftOptions: TranslateOptions = options,
): { entry: BlastRadiusEntry; diff: ProxyDiff } | undefined {
  if (base === draft || (!base.ambient && !draft.ambient)) return undefined;
  const before = keyed(buildZtunnelView(base, options));
  const after = keyed(buildZtunnelView(draft, draftOptions));
  const resources: ResourceChange[] = [];
  const summary: string[] = [];
  for (const [id, b] of before) {
    const a = after.get(id);
    if (!a) {
      resources.push({ type: b.type, name: b.key, change: 'removed', before: b.json });
      summary.push(describe(b, 'removed'));
    } else if (JSON.stringify(a.json) !== JSON.stringify(b.json)) {
      resources.push({ type: b.type, name: b.key, change: 'changed', before: b.json, after: a.json });
      summary.push(describe(b, 'changed', b.json, a.json));
    }
  }
  for (const [id, a] of after)
    if (!before.has(id)) {
      resources.push({ type: a.type, name: a.key, change: 'added', after: a.json });
      summary.push(describe(a, 'added'));
    }
  if (resources.length === 0) return undefined;
  const types = (['addresses', 'authorizations'] as const).filter((t) => resources.some((r) => r.type === t));
  return {
    entry: { proxy: ZTUNNEL_ENTRY, type: 'ztunnel', namespace: '', types: [...types], summary },
    diff: { proxy: ZTUNNEL_ENTRY, summary, virtualHosts: [], routes: [], resources },
  };
}
