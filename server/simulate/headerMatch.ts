// envoy.config.route.v3.HeaderMatcher and QueryParameterMatcher evaluation.
// Envoy: source/common/http/header_utility.cc (HeaderUtility::matchHeaders, HeaderData ctor) and
// source/common/router/config_utility.cc (ConfigUtility::QueryParameterMatcher::matches).
import { bool, num, obj, str, type J } from './json';
import { fullRegex, stringMatch } from './stringMatch';

export interface MatchOutcome {
  match: boolean;
  /** Why it did not match (set when match is false). */
  reason?: string;
}

type Kind = { t: 'present'; present: boolean } | { t: 'test'; describe: string; test: (v: string) => boolean };

function headerKind(h: J): Kind {
  const exact = str(h, 'exact_match');
  // Legacy exact_match: an empty value matches any present header (HeaderData: value_.empty()).
  if (exact !== undefined) return { t: 'test', describe: `exact "${exact}"`, test: (v) => exact === '' || v === exact };
  const re = obj(h, 'safe_regex_match');
  if (re) {
    const src = str(re, 'regex') ?? '';
    const rx = fullRegex(src);
    return { t: 'test', describe: `regex "${src}"`, test: (v) => rx?.fullMatch(v) ?? false };
  }
  const range = obj(h, 'range_match');
  if (range) {
    const start = num(range, 'start') ?? 0;
    const end = num(range, 'end') ?? 0;
    return {
      t: 'test',
      describe: `range [${start},${end})`,
      test: (v) => /^-?\d+$/.test(v) && Number(v) >= start && Number(v) < end,
    };
  }
  const present = bool(h, 'present_match');
  if (present !== undefined) return { t: 'present', present };
  const prefix = str(h, 'prefix_match');
  if (prefix !== undefined) return { t: 'test', describe: `prefix "${prefix}"`, test: (v) => v.startsWith(prefix) };
  const suffix = str(h, 'suffix_match');
  if (suffix !== undefined) return { t: 'test', describe: `suffix "${suffix}"`, test: (v) => v.endsWith(suffix) };
  const contains = str(h, 'contains_match');
  if (contains !== undefined) return { t: 'test', describe: `contains "${contains}"`, test: (v) => v.includes(contains) };
  const sm = obj(h, 'string_match');
  if (sm) return { t: 'test', describe: stringMatch(sm, '').describe, test: (v) => stringMatch(sm, v).match };
  // No specifier: the header must be present (HeaderData defaults to Present/true).
  return { t: 'present', present: true };
}

/** One HeaderMatcher against the request headers (names lower-cased). */
export function matchHeader(h: J, headers: ReadonlyMap<string, string>): MatchOutcome {
  const name = (str(h, 'name') ?? '').toLowerCase();
  const invert = bool(h, 'invert_match') === true;
  const missingAsEmpty = bool(h, 'treat_missing_header_as_empty') === true;
  const kind = headerKind(h);
  const value = headers.get(name);
  if (value === undefined && !missingAsEmpty) {
    const match = kind.t === 'present' && (invert ? kind.present : !kind.present);
    return match ? { match } : { match, reason: `header ${name} absent` };
  }
  const v = value ?? '';
  const raw = kind.t === 'present' ? kind.present : kind.test(v);
  const match = raw !== invert;
  if (match) return { match };
  if (kind.t === 'present') return { match, reason: `header ${name} is ${value === undefined ? 'absent' : 'present'}` };
  if (invert) return { match, reason: `header ${name} value "${v}" matches ${kind.describe} (invert_match)` };
  return { match, reason: `header ${name} value "${v}" does not match ${kind.describe}` };
}

/** All header matchers must match; the first failure is reported. */
export function matchHeaders(list: J[], headers: ReadonlyMap<string, string>): MatchOutcome {
  for (const h of list) {
    const r = matchHeader(h, headers);
    if (!r.match) return r;
  }
  return { match: true };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Parses `a=1&b=2` into first-value-per-name (Envoy matches the first occurrence). */
export function parseQuery(query: string): Map<string, string> {
  const out = new Map<string, string>();
  if (query === '') return out;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const k = decode(eq >= 0 ? part.slice(0, eq) : part);
    const v = eq >= 0 ? decode(part.slice(eq + 1)) : '';
    if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/** One QueryParameterMatcher: `string_match` or `present_match`; neither set means "present". */
export function matchQueryParam(q: J, params: ReadonlyMap<string, string>): MatchOutcome {
  const name = str(q, 'name') ?? '';
  const value = params.get(name);
  const sm = obj(q, 'string_match');
  if (sm) {
    if (value === undefined) return { match: false, reason: `query parameter ${name} absent` };
    const r = stringMatch(sm, value);
    return r.match ? { match: true } : { match: false, reason: `query parameter ${name} value "${value}" does not match ${r.describe}` };
  }
  // present_match (or nothing): presence only (ConfigUtility::QueryParameterMatcher::matches).
  return value !== undefined ? { match: true } : { match: false, reason: `query parameter ${name} absent` };
}
