// An Envoy RouteMatch in words, the way a person reads a VirtualService rule:
// `GET /api/* with end-user=jason`. Envoy semantics (route_components.proto RouteMatch):
// prefix → `p*`, path → exact `p`, path_separated_prefix → `p` or `p/*`, safe_regex → `~re`;
// the `:method` pseudo-header is shown as the method; other headers as `name=value`.
import { arr, obj, str } from './json';

function stringMatch(m: unknown): { op: string; v: string } | undefined {
  const s = obj(m);
  for (const [k, op] of [
    ['exact', '='],
    ['prefix', '^='],
    ['suffix', '$='],
    ['contains', '*='],
  ] as const) {
    const v = str(s[k]);
    if (v !== undefined) return { op, v };
  }
  const re = str(obj(s.safe_regex).regex);
  if (re !== undefined) return { op: '~', v: re };
  return undefined;
}

/** One HeaderMatcher: `end-user=jason`, `x-env^=prod`, `not x-debug present`. */
export function humanHeader(h: unknown): string {
  const m = obj(h);
  const name = str(m.name) ?? '?';
  const not = m.invert_match === true ? 'not ' : '';
  if (m.present_match !== undefined) return m.present_match === false ? `${not}${name} absent` : `${not}${name} present`;
  let sm = m.string_match !== undefined ? stringMatch(m.string_match) : undefined;
  if (!sm) {
    for (const [k, op] of [
      ['exact_match', '='],
      ['prefix_match', '^='],
      ['suffix_match', '$='],
      ['contains_match', '*='],
    ] as const) {
      const v = str(m[k]);
      if (v !== undefined) sm = { op, v };
    }
    const re = str(obj(m.safe_regex_match).regex);
    if (!sm && re !== undefined) sm = { op: '~', v: re };
  }
  return sm ? `${not}${name}${sm.op}${sm.v}` : `${not}${name} present`;
}

/** `GET /api/* with end-user=jason`; `/*` when the route matches everything. */
export function humanMatch(match: unknown): string {
  const m = obj(match);
  let method = '';
  const headers: string[] = [];
  for (const h of arr(m.headers)) {
    const hm = obj(h);
    const exact = str(obj(hm.string_match).exact) ?? str(hm.exact_match);
    if (str(hm.name) === ':method' && exact !== undefined && hm.invert_match !== true && !method) method = exact;
    else headers.push(humanHeader(h));
  }
  let path = '/*';
  const prefix = str(m.prefix);
  const exact = str(m.path);
  const sep = str(m.path_separated_prefix);
  const re = str(obj(m.safe_regex).regex);
  if (prefix !== undefined) path = `${prefix}*`;
  else if (exact !== undefined) path = exact;
  else if (sep !== undefined) path = `${sep}, ${sep}/*`;
  else if (re !== undefined) path = `~${re}`;
  const query = arr(m.query_parameters).map((q) => {
    const qp = obj(q);
    const name = str(qp.name) ?? '?';
    if (qp.present_match === true) return `${name} present`;
    const sm = stringMatch(qp.string_match);
    return sm ? `${name}${sm.op}${sm.v}` : name;
  });
  let out = method ? `${method} ${path}` : path;
  if (m.case_sensitive === false) out += ' (any case)';
  if (query.length) out += ` ?${query.join('&')}`;
  if (headers.length) out += ` with ${headers.join(', ')}`;
  return out;
}
