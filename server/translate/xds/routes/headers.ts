// VirtualService `headers` → Envoy header mutations (istio route.go:TranslateHeadersOperations).
import type { HeaderValueOptionJson } from '../../../gen/envoy/config/core/v3/base_pb';
import type { HeaderOperations, Headers } from '../../../model/istio';
import { byteCompare } from '../../../lib/compare';
import { asObject } from '../../../lib/json';

export interface HeadersOperations {
  requestHeadersToAdd: HeaderValueOptionJson[];
  responseHeadersToAdd: HeaderValueOptionJson[];
  requestHeadersToRemove: string[];
  responseHeadersToRemove: string[];
  /** Value of a `:authority`/`host` header set or added (becomes host_rewrite_literal). */
  authority: string;
}

const isInternalHeader = (k: string) => k.startsWith(':') || k.toLowerCase() === 'host';
const isAuthorityHeader = (k: string) => k.toLowerCase() === ':authority' || k.toLowerCase() === 'host';

/** translateAppendHeaders: sorted by key; `set` → OVERWRITE_IF_EXISTS_OR_ADD, `add` → APPEND_IF_EXISTS_OR_ADD (proto default, omitted). */
function appendHeaders(headers: Record<string, string> | undefined, append: boolean): { list: HeaderValueOptionJson[]; authority: string } {
  let authority = '';
  const list: HeaderValueOptionJson[] = [];
  const map = headers && typeof headers === 'object' && !Array.isArray(headers) ? headers : {};
  for (const key of Object.keys(map).sort(byteCompare)) {
    const v = map[key];
    const value = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
    if (isAuthorityHeader(key)) authority = value;
    if (isInternalHeader(key)) continue;
    const opt: HeaderValueOptionJson = { header: { key, value } };
    if (!append) opt.appendAction = 'OVERWRITE_IF_EXISTS_OR_ADD';
    list.push(opt);
  }
  return { list, authority };
}

const dropInternal = (keys: string[] | undefined) =>
  (Array.isArray(keys) ? keys : []).filter((k): k is string => typeof k === 'string' && !isInternalHeader(k));

export function translateHeadersOperations(h: Headers): HeadersOperations {
  const obj = (v: unknown): HeaderOperations => asObject(v) as HeaderOperations;
  const req = obj(h?.request);
  const resp = obj(h?.response);
  const reqSet = appendHeaders(req.set, false);
  const reqAdd = appendHeaders(req.add, true);
  const respSet = appendHeaders(resp.set, false);
  const respAdd = appendHeaders(resp.add, true);
  return {
    requestHeadersToAdd: [...reqSet.list, ...reqAdd.list],
    responseHeadersToAdd: [...respSet.list, ...respAdd.list],
    requestHeadersToRemove: dropInternal(req.remove),
    responseHeadersToRemove: dropInternal(resp.remove),
    // `set` wins over `add` when both carry an authority.
    authority: reqSet.authority || reqAdd.authority,
  };
}

/** Copies non-empty header operations onto a route / weighted cluster entry (appending to what is there). */
export function applyHeaderOps(
  target: {
    requestHeadersToAdd?: HeaderValueOptionJson[];
    responseHeadersToAdd?: HeaderValueOptionJson[];
    requestHeadersToRemove?: string[];
    responseHeadersToRemove?: string[];
  },
  ops: HeadersOperations,
): void {
  const add = <K extends 'requestHeadersToAdd' | 'responseHeadersToAdd' | 'requestHeadersToRemove' | 'responseHeadersToRemove'>(k: K) => {
    const v = ops[k] as NonNullable<(typeof target)[K]>;
    if (v.length) target[k] = [...((target[k] ?? []) as typeof v), ...v] as (typeof target)[K];
  };
  add('requestHeadersToAdd');
  add('requestHeadersToRemove');
  add('responseHeadersToAdd');
  add('responseHeadersToRemove');
}
