// Listener.filter_chain_matcher (xds.type.matcher.v3.Matcher over network inputs) → filter chain name.
// Envoy: source/common/matcher/{matcher.h,exact_map_matcher.h,prefix_map_matcher.h}, the network inputs in
// source/common/network/matching/inputs.cc (ApplicationProtocolInput joins ALPN as `'a','b'`), and the
// IP matcher (extensions/matching/input_matchers/ip + common/matcher/ip_matcher: most specific range first).
// A nested matcher that does not match falls through to the enclosing on_no_match.
import { arr, isObj, num, obj, objs, str, typeName, type J } from './json';
import { cidrContains } from './ip';
import { stringMatch } from './stringMatch';
import type { Detected } from './filterChain';
import type { SimCtx } from './types';

interface Inputs {
  ctx: SimCtx;
  det: Detected;
}

/** The value an input extension yields, or undefined when it has none (→ no match). */
function inputValue(input: unknown, inp: Inputs): string | undefined {
  const t = typeName(obj(input, 'typed_config'));
  switch (t) {
    case 'envoy.extensions.matching.common_inputs.network.v3.DestinationIPInput':
      return inp.ctx.address;
    case 'envoy.extensions.matching.common_inputs.network.v3.DestinationPortInput':
      return String(inp.ctx.port);
    case 'envoy.extensions.matching.common_inputs.network.v3.ServerNameInput':
      return inp.det.sni === '' ? undefined : inp.det.sni;
    case 'envoy.extensions.matching.common_inputs.network.v3.TransportProtocolInput':
      return inp.det.transportProtocol;
    case 'envoy.extensions.matching.common_inputs.network.v3.ApplicationProtocolInput':
      return inp.det.alpn.length === 0 ? undefined : inp.det.alpn.map((p) => `'${p}'`).join(',');
    default:
      // Source IP/port/type (the simulated client is external: SourceTypeInput yields no "local") and
      // unknown inputs have no value.
      return undefined;
  }
}

type Outcome = { action: string } | undefined;

function onMatch(m: unknown, inp: Inputs, depth: number): Outcome {
  if (!isObj(m)) return undefined;
  const action = obj(m, 'action');
  if (action) {
    const tc = obj(action, 'typed_config');
    const value = str(tc, 'value') ?? str(action, 'name');
    return value === undefined ? undefined : { action: value };
  }
  const nested = obj(m, 'matcher');
  return nested ? evalMatcher(nested, inp, depth + 1) : undefined;
}

function predicate(p: unknown, inp: Inputs): boolean {
  if (!isObj(p)) return false;
  const single = obj(p, 'single_predicate');
  if (single) {
    const v = inputValue(obj(single, 'input'), inp);
    if (v === undefined) return false;
    const vm = obj(single, 'value_match');
    if (vm) return stringMatch(vm, v).match;
    const custom = obj(single, 'custom_match');
    if (custom) return ipMatch(obj(custom, 'typed_config'), v) !== undefined;
    return false;
  }
  const or = obj(p, 'or_matcher');
  if (or) return arr(or, 'predicate').some((x) => predicate(x, inp));
  const and = obj(p, 'and_matcher');
  if (and) return arr(and, 'predicate').every((x) => predicate(x, inp));
  const not = obj(p, 'not_matcher');
  if (not) return !predicate(not, inp);
  return false;
}

/** IPMatcher: range matchers containing the IP, most specific first. */
function ipMatch(ipm: J | undefined, ip: string): J[] | undefined {
  const hits: { len: number; m: J }[] = [];
  for (const rm of objs(ipm, 'range_matchers')) {
    let best = -1;
    for (const r of objs(rm, 'ranges')) {
      const len = num(r, 'prefix_len') ?? 0;
      if (cidrContains(str(r, 'address_prefix') ?? '', len, ip)) best = Math.max(best, len);
    }
    if (best >= 0) hits.push({ len: best, m: rm });
  }
  if (hits.length === 0) return undefined;
  // Longest prefix first, then declaration order; an `exclusive` matcher is skipped when a more specific
  // one exists, even if that one's nested condition fails (xds/type/matcher/v3/ip.proto).
  const sorted = hits.sort((a, b) => b.len - a.len);
  const longest = sorted[0]?.len ?? 0;
  return sorted.filter((h) => !(h.m['exclusive'] === true && h.len < longest)).map((h) => h.m);
}

function treeMatch(tree: J, inp: Inputs, depth: number): Outcome {
  const v = inputValue(obj(tree, 'input'), inp);
  if (v === undefined) return undefined;
  const exact = obj(obj(tree, 'exact_match_map'), 'map');
  if (exact) return onMatch(exact[v], inp, depth);
  const prefix = obj(obj(tree, 'prefix_match_map'), 'map');
  if (prefix) {
    const keys = Object.keys(prefix)
      .filter((k) => v.startsWith(k))
      .sort((a, b) => b.length - a.length);
    for (const k of keys) {
      const r = onMatch(prefix[k], inp, depth);
      if (r) return r;
    }
    return undefined;
  }
  const custom = obj(tree, 'custom_match');
  if (custom && typeName(obj(custom, 'typed_config')).endsWith('IPMatcher')) {
    for (const rm of ipMatch(obj(custom, 'typed_config'), v) ?? []) {
      const r = onMatch(obj(rm, 'on_match'), inp, depth);
      if (r) return r;
    }
  }
  return undefined;
}

function evalMatcher(m: J, inp: Inputs, depth: number): Outcome {
  if (depth > 32) return undefined;
  let r: Outcome;
  const tree = obj(m, 'matcher_tree');
  const list = obj(m, 'matcher_list');
  if (tree) r = treeMatch(tree, inp, depth);
  else if (list) {
    for (const fm of objs(list, 'matchers')) {
      if (!predicate(obj(fm, 'predicate'), inp)) continue;
      r = onMatch(obj(fm, 'on_match'), inp, depth);
      if (r) break;
    }
  }
  return r ?? onMatch(obj(m, 'on_no_match'), inp, depth);
}

/** The filter chain name chosen by the listener's filter_chain_matcher, or undefined (→ default chain). */
export function matchChainName(matcher: J, ctx: SimCtx, det: Detected): string | undefined {
  return evalMatcher(matcher, { ctx, det }, 0)?.action;
}
