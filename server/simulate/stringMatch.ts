// envoy.type.matcher.v3.StringMatcher and RE2-style regexes (full match), shared by header, query and
// unified-matcher predicates. Envoy: source/common/common/matchers.cc (StringMatcherImpl).
import { bool, isObj, obj, str, type J } from './json';

/** Compiles an RE2 regex for a full match; undefined when it is not valid here. Handles a leading `(?i)`. */
export function fullRegex(re: string, ignoreCase = false): RegExp | undefined {
  let src = re;
  let flags = ignoreCase ? 'i' : '';
  if (src.startsWith('(?i)')) {
    src = src.slice(4);
    flags = 'i';
  }
  try {
    return new RegExp(`^(?:${src})$`, flags + 'u');
  } catch {
    try {
      return new RegExp(`^(?:${src})$`, flags);
    } catch {
      return undefined;
    }
  }
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
    const rx = fullRegex(re, ic);
    if (!rx) return { match: false, describe: `regex "${re}" (invalid here)` };
    return { match: rx.test(value), describe: `regex "${re}"` };
  }
  return { match: false, describe: isObj(m) ? `unsupported matcher ${Object.keys(m).join(',')}` : 'invalid matcher' };
}
