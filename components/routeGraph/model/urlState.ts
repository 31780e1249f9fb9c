// The route graph tab's URL state: `?tab=graph&listener=…&rc=9080&vh=reviews…:9080&port=…&find=…&node=<id>`.
// Pure: parse / write URLSearchParams, leaving every other parameter alone.
import type { GraphFilter } from './types';

export const GRAPH_PARAMS = ['listener', 'rc', 'vh', 'port', 'find', 'node'] as const;

export interface GraphUrlState {
  /** undefined: nothing in the URL (the view picks a starting filter). */
  filter?: GraphFilter;
  node?: string;
}

export function graphStateFromParams(p: URLSearchParams): GraphUrlState {
  const f: GraphFilter = {};
  const listener = p.get('listener');
  if (listener) f.listener = listener;
  const rc = p.get('rc');
  if (rc) f.routeConfig = rc;
  const vh = p.get('vh');
  if (vh) f.virtualHost = vh;
  const port = p.get('port');
  if (port && /^\d{1,5}$/.test(port)) f.port = Number(port);
  const find = p.get('find');
  if (find) f.text = find;
  const node = p.get('node');
  const given = GRAPH_PARAMS.slice(0, 5).some((k) => p.has(k));
  return { ...(given ? { filter: f } : {}), ...(node ? { node } : {}) };
}

export function graphStateToParams(s: GraphUrlState, base: URLSearchParams): URLSearchParams {
  const p = new URLSearchParams(base);
  for (const k of GRAPH_PARAMS) p.delete(k);
  const f = s.filter;
  if (f) {
    if (f.listener) p.set('listener', f.listener);
    if (f.routeConfig) p.set('rc', f.routeConfig);
    if (f.virtualHost) p.set('vh', f.virtualHost);
    if (f.port !== undefined) p.set('port', String(f.port));
    if (f.text) p.set('find', f.text);
    // "everything" is a choice too: keep it from being replaced by the starting filter on reload.
    if (!f.listener && !f.routeConfig && !f.virtualHost && f.port === undefined && !f.text) p.set('find', '');
  }
  if (s.node) p.set('node', s.node);
  return p;
}
