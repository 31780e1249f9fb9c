// RE2 semantics for every user/Envoy regex (issue #25 §1). Rules mirrored:
//  - istio pkg/config/validation/validation.go validateStringRegexp (1024-character cap, Go regexp.Compile,
//    Istio's "Istio uses RE2 style regex-based match" hint) — Go's regexp/syntax error texts
//    (ErrInvalidPerlOp, ErrInvalidNamedCapture, ErrInvalidEscape, ErrInvalidRepeatOp).
//  - Envoy source/common/common/regex.cc: safe_regex is a full match (RE2::FullMatch); test/common/common/
//    regex_test.cc "Regression test for envoy#15826" (/status/200(/.*)?$).
//  - RE2 re2/testing/re2_test.cc TEST(RE2, Replace): GlobalReplace results, the rewrite string's \0..\9.
import { describe, expect, it } from 'vitest';
import { compileRe2, istioRegexError, re2SyntaxError } from './re2';

const re = (p: string) => {
  const r = compileRe2(p);
  if (!r.ok) throw new Error(r.error);
  return r.re;
};

describe('RE2 syntax as istiod validates it (Go regexp/syntax)', () => {
  it.each([
    ['a(?=b)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['a(?!b)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
    ['(?<=a)b', 'error parsing regexp: invalid named capture: `(?<=a)b`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['a++', 'error parsing regexp: invalid nested repetition operator: `++`'],
    ['a*+', 'error parsing regexp: invalid nested repetition operator: `*+`'],
    ['(+invalid)', 'error parsing regexp: missing argument to repetition operator: `+`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
  ])('%s is rejected with Go’s text', (p, msg) => {
    expect(re2SyntaxError(p)).toBe(msg);
  });
  it('accepts RE2 syntax that JavaScript spells differently or lacks', () => {
    for (const p of ['(?i)abc', '(?P<n>a)', '\\pL+', '\\Q.*\\E', '[[:alpha:]]+', '(?s).', '\\z']) expect(re2SyntaxError(p)).toBeUndefined();
  });
  it('istioRegexError: the 1024-character cap, then the compile error with Istio’s hint', () => {
    expect(istioRegexError('a'.repeat(1024))).toBeUndefined();
    expect(istioRegexError('a'.repeat(1025))).toBe('regex is too large, max length allowed is 1024');
    expect(istioRegexError('/api(?=/v1)')).toBe(
      'error parsing regexp: invalid or unsupported Perl syntax: `(?=`; Istio uses RE2 style regex-based match (https://github.com/google/re2/wiki/Syntax)',
    );
  });
});

describe('full match (Envoy safe_regex)', () => {
  it('matches the whole input only (envoy regex_test.cc, issue 15826)', () => {
    const r = re('/status/200(/.*)?$');
    expect(['/status/200', '/status/200/', '/status/200/foo'].map((s) => r.fullMatch(s))).toEqual([true, true, true]);
    expect(r.fullMatch('/status/200foo')).toBe(false);
    expect(re('b').fullMatch('abc')).toBe(false);
    expect(re('b').partialMatch('abc')).toBe(true);
  });
  it('answers /(a+)+b against 10,000 a’s without backtracking (linear in the input: a 100,000-character path too)', () => {
    const r = re('/(a+)+b');
    expect(r.fullMatch(`/${'a'.repeat(10_000)}`)).toBe(false);
    expect(r.fullMatch(`/${'a'.repeat(100_000)}`)).toBe(false);
    expect(r.fullMatch(`/${'a'.repeat(10_000)}b`)).toBe(true);
  });
  it('(?i) and Unicode classes are RE2’s', () => {
    expect(re('(?i)/API/.*').fullMatch('/api/x')).toBe(true);
    expect(re('\\pL+').fullMatch('héllo')).toBe(true);
    expect(re('.').fullMatch('\n')).toBe(false);
  });
});

describe('GlobalReplace (Envoy regex_rewrite)', () => {
  // RE2 re2_test.cc TEST(RE2, Replace): [regexp, rewrite, original, global].
  it.each([
    [
      '(qu|[b-df-hj-np-tv-z]*)([a-z]+)',
      '\\2\\1ay',
      'the quick brown fox jumps over the lazy dogs.',
      'ethay ickquay ownbray oxfay umpsjay overay ethay azylay ogsday.',
    ],
    ['\\w+', '\\0-NOSPAM', 'abcd.efghi@google.com', 'abcd-NOSPAM.efghi-NOSPAM@google-NOSPAM.com-NOSPAM'],
    ['^', '(START)', 'foo', '(START)foo'],
    ['^', '(START)', '', '(START)'],
    ['$', '(END)', '', '(END)'],
    ['b', 'bb', 'ababababab', 'abbabbabbabbabb'],
    ['b', 'bb', 'bbbbbb', 'bbbbbbbbbbbb'],
    ['b+', 'bb', 'bbbbbb', 'bb'],
    ['b*', 'bb', 'bbbbbb', 'bb'],
    ['b*', 'bb', 'aaaaa', 'bbabbabbabbabbabb'],
    ['a.*a', '(\\0)', 'aba\naba', '(aba)\n(aba)'],
  ])('GlobalReplace(%j, %j) on %j', (p, rewrite, input, want) => {
    expect(re(p).globalReplace(input, rewrite)).toBe(want);
  });
  it('Envoy’s route.proto regex_rewrite examples', () => {
    // envoy/config/route/v3/route_components.proto RouteAction.regex_rewrite.
    expect(re('^/service/([^/]+)(/.*)$').globalReplace('/service/foo/v1/api', '\\2/instance/\\1')).toBe('/v1/api/instance/foo');
    expect(re('one').globalReplace('/xxx/one/yyy/one/zzz', 'two')).toBe('/xxx/two/yyy/two/zzz');
    expect(re('^/aaa/bbb$').globalReplace('/aaa/bbb', '/ccc')).toBe('/ccc');
  });
  it('a `$` in the rewrite is literal and a reference past the groups or a bad escape is refused (RE2::Rewrite)', () => {
    expect(re('(a)').globalReplace('xa', '$1\\\\')).toBe('x$1\\');
    expect(re('(a)').globalReplace('xa', '\\2')).toBeUndefined();
    expect(re('(a)').globalReplace('xa', '\\x')).toBeUndefined();
  });
  it('no match leaves the input as it is', () => {
    expect(re('z').globalReplace('abc', 'y')).toBe('abc');
  });
});
