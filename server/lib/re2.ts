// The one regex engine for user and Envoy regexes, in the server and in the browser: RE2 semantics (linear
// time, no backtracking) through re2js, a port of RE2/J (Go's regexp/syntax parser and compiler).
//  - Syntax: Go's regexp/syntax with Perl flags, which is what istiod validates with (`regexp.Compile`):
//    lookarounds, backreferences and possessive quantifiers are rejected with Go's error text.
//  - Matching: Envoy's `safe_regex` matchers are full matches (source/common/common/regex.cc,
//    CompiledGoogleReMatcher::match → re2::RE2::FullMatch).
//  - Rewriting: Envoy's `regex_rewrite` is re2::RE2::GlobalReplace (source/common/router/config_impl.cc,
//    RouteEntryImplBase::currentUrlPathAfterRewriteWithMatchedPath) with RE2's rewrite string (`\0`..`\9`,
//    `\\`).
// JavaScript's RegExp must never see a user's or an Envoy config's pattern (issue #25).
import { RE2JS, type Matcher } from 're2js';

/** istio pkg/config/validation/validation.go validateStringRegexp: the length cap standing in for program size. */
export const ISTIO_MAX_REGEX_LENGTH = 1024;

export interface Re2 {
  readonly pattern: string;
  /** Capturing groups in the pattern. */
  readonly groups: number;
  /** RE2::FullMatch: the whole input matches. */
  fullMatch(input: string): boolean;
  /** RE2::PartialMatch: some substring matches. */
  partialMatch(input: string): boolean;
  /**
   * RE2::GlobalReplace(input, re, rewrite): every non-overlapping match replaced, an empty match right after
   * the previous match skipped. Undefined when the rewrite string is invalid (RE2::Rewrite fails), as Envoy
   * then leaves the path alone.
   */
  globalReplace(input: string, rewrite: string): string | undefined;
}

export type Re2Result = { ok: true; re: Re2 } | { ok: false; error: string };

/** Compiles `pattern` with RE2 (Go) syntax; the error is Go's text, e.g. "error parsing regexp: ...". */
export function compileRe2(pattern: string): Re2Result {
  let p: RE2JS;
  try {
    p = RE2JS.compile(pattern);
  } catch (e) {
    return { ok: false, error: errorText(e) };
  }
  return { ok: true, re: wrap(pattern, p) };
}

/** Go's regexp.Compile error for `pattern`, or undefined when it compiles. */
export function re2SyntaxError(pattern: string): string | undefined {
  const r = compileRe2(pattern);
  return r.ok ? undefined : r.error;
}

/**
 * istiod's validateStringRegexp (pkg/config/validation/validation.go), without its `"where": ` prefix (meshscope
 * locates the error by field path): the 1024-character cap, then Go's regexp.Compile error with Istio's hint.
 */
export function istioRegexError(pattern: string): string | undefined {
  if (pattern.length > ISTIO_MAX_REGEX_LENGTH) return `regex is too large, max length allowed is ${ISTIO_MAX_REGEX_LENGTH}`;
  const err = re2SyntaxError(pattern);
  return err === undefined ? undefined : `${err}; Istio uses RE2 style regex-based match (https://github.com/google/re2/wiki/Syntax)`;
}

function errorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.startsWith('error parsing regexp: ') ? msg : `error parsing regexp: ${msg}`;
}

function wrap(pattern: string, p: RE2JS): Re2 {
  const groups = p.groupCount();
  return {
    pattern,
    groups,
    fullMatch: (input) => p.matches(input),
    partialMatch: (input) => p.test(input),
    globalReplace: (input, rewrite) => globalReplace(p.matcher(input), input, rewrite, groups),
  };
}

/** RE2::Rewrite's parse of a rewrite string: literal text and group references; undefined when invalid. */
function parseRewrite(rewrite: string, groups: number): (string | number)[] | undefined {
  const out: (string | number)[] = [];
  let lit = '';
  for (let i = 0; i < rewrite.length; i++) {
    const c = rewrite[i];
    if (c !== '\\') {
      lit += c;
      continue;
    }
    const n = rewrite[++i];
    if (n === '\\') lit += '\\';
    else if (n !== undefined && n >= '0' && n <= '9') {
      // RE2::Rewrite: "invalid substitution \N from M groups" when N is past the groups.
      if (Number(n) > groups) return undefined;
      if (lit) out.push(lit);
      lit = '';
      out.push(Number(n));
    } else return undefined; // "invalid rewrite pattern"
  }
  if (lit) out.push(lit);
  return out;
}

function globalReplace(m: Matcher, input: string, rewrite: string, groups: number): string | undefined {
  const parts = parseRewrite(rewrite, groups);
  if (!parts) return undefined;
  let out = '';
  let p = 0;
  let lastEnd = -1;
  let count = 0;
  while (p <= input.length && m.find(p)) {
    const start = m.start();
    const end = m.end();
    if (p < start) out += input.slice(p, start);
    if (start === lastEnd && start === end) {
      // Disallow an empty match at the end of the last match: copy one character (code point) and go on.
      if (p >= input.length) break;
      const n = (input.codePointAt(p) ?? 0) > 0xffff ? 2 : 1;
      out += input.slice(p, p + n);
      p += n;
      continue;
    }
    for (const part of parts) out += typeof part === 'string' ? part : (m.group(part) ?? '');
    p = end;
    lastEnd = end;
    count++;
  }
  if (count === 0) return input;
  if (p < input.length) out += input.slice(p);
  return out;
}
