// The ONE place the sandbox reads where a generated route or cluster came from. It reads only what
// translation wrote on the resource (filter_metadata.istio.config, Istio's AddConfigInfoMetadata key) —
// never re-translates or string-matches rules afterwards. When the translator also records the rule
// (`http[i]`, delegate), this is the function that picks it up.
import type { EnvoyJson } from '../envoy/encode';
import { parseConfigPath } from '../translate/provenance';
import type { RuleSource } from './types';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/** The source rule of an Envoy route or cluster (Envoy JSON, snake_case), when translation recorded one. */
export function sourceOf(resource: EnvoyJson | Json): RuleSource | undefined {
  const istio = obj(obj(obj(resource.metadata)?.filter_metadata)?.istio);
  const path = istio?.config;
  if (typeof path !== 'string') return undefined;
  const p = parseConfigPath(path);
  if (!p) return undefined;
  const out: RuleSource = { kind: p.kind, namespace: p.namespace, name: p.name };
  if (typeof istio?.rule === 'string') out.rule = istio.rule;
  return out;
}
