// envoy.type.matcher.v3.StringMatcher and RE2-style regexes (full match), shared by header, query and
// unified-matcher predicates. Envoy: source/common/common/matchers.cc (StringMatcherImpl).
import { compileRe2, type Re2 } from '../lib/re2';
import { bool, isObj, obj, str, type J } from './json';

/** Compiles an RE2 regex (server/lib/re2: linear time, Go/RE2 syntax) for Envoy's full match; undefined when invalid. */
export function fullRegex(re: string): Re2 | undefined {
  const r = compileRe2(re);
  return r.ok ? r.re : undefined;
}

export interface StringMatchOutcome {
  match: boolean;
  /** e.g. `exact "jason"`, for rejection reasons. */
  describe: string;
}

/** Evaluates a StringMatcher against a value. Unknown matcher kinds never match. */
export function stringMatch(m: J, value: string): StringMatchOutcome {
  const ic = bool(m, 'ignore_case') === true;
  const v = ic ? value.toLowerCase() : value;
  const norm = (s: string) => (ic ? s.toLowerCase() : s);
  const exact = str(m, 'exact');
  if (exact !== undefined) return { match: v === norm(exact), describe: `exact "${exact}"` };
  const prefix = str(m, 'prefix');
  if (prefix !== undefined) return { match: v.startsWith(norm(prefix)), describe: `prefix "${prefix}"` };
  const suffix = str(m, 'suffix');
  if (suffix !== undefined) return { match: v.endsWith(norm(suffix)), describe: `suffix "${suffix}"` };
  const contains = str(m, 'contains');
  if (contains !== undefined) return { match: v.includes(norm(contains)), describe: `contains "${contains}"` };
  const sr = obj(m, 'safe_regex');
  if (sr) {
    const re = str(sr, 'regex') ?? '';
    // StringMatcher.ignore_case "has no effect for the safe_regex match" (envoy/type/matcher/v3/string.proto).
    const rx = fullRegex(re);
    if (!rx) return { match: false, describe: `regex "${re}" (invalid here)` };
    return { match: rx.fullMatch(value), describe: `regex "${re}"` };
  }
  return { match: false, describe: isObj(m) ? `unsupported matcher ${Object.keys(m).join(',')}` : 'invalid matcher' };
}
