// C++ RE2's ProgramSize (what Envoy checks against re2.max_program_size.error_level, default 100:
// envoy source/common/common/regex.cc). Expected values:
//  - re2/testing/compile_test.cc TestRegexpCompileToProg: the flattened programs it prints for ASCII-only
//    patterns (identical in UTF-8 and Latin-1); the size is the last instruction number + 1.
//  - envoy test/common/common/regex_test.cc TEST(Utility, ParseRegex): "/asdf/.*" compiles under the default
//    error level 100 but exceeds 1 and 3; thirteen "/asdf/.*" exceed 100.
//  - re2/testing/re2_test.cc TEST(ProgramSize, BigProgram): simple < medium < complex.
import { describe, expect, it } from 'vitest';
import { re2ProgramSize } from './re2ProgramSize';

describe('re2ProgramSize', () => {
  it.each([
    ['a', 5],
    ['ab', 6],
    ['a|c', 6],
    ['a|b', 5],
    ['[ab]', 5],
    ['a+', 6],
    ['a+?', 6],
    ['a*', 5],
    ['a*?', 5],
    ['a?', 6],
    ['a??', 6],
    ['a{4}', 8],
    ['(a)', 7],
    ['(?:a)', 5],
    ['', 4],
    ['[[-`]', 5],
    ['(?:|a)*', 10],
    ['(?:|a)+', 7],
    ['[Aa]', 5],
  ])('%j flattens to RE2 compile_test.cc’s program (%i instructions)', (p, n) => {
    expect(re2ProgramSize(p)).toBe(n);
  });

  it('Envoy regex_test.cc thresholds: /asdf/.* is within 100 but above 3; thirteen of them exceed 100', () => {
    const one = re2ProgramSize('/asdf/.*') ?? 0;
    expect(one).toBeGreaterThan(3);
    expect(one).toBeLessThanOrEqual(100);
    expect(re2ProgramSize('/asdf/.*'.repeat(13))).toBeGreaterThan(100);
  });

  it('RE2 re2_test.cc ProgramSize ordering', () => {
    const s = re2ProgramSize('simple regexp') ?? 0;
    const m = re2ProgramSize('medium.*regexp') ?? 0;
    const c = re2ProgramSize('complex.{1,128}regexp') ?? 0;
    expect(s).toBeGreaterThan(0);
    expect(m).toBeGreaterThan(s);
    expect(c).toBeGreaterThan(m);
  });

  it('UTF-8: `.` is byte ranges with shared continuation bytes (Compiler::Add_80_10ffff), larger than in Latin-1', () => {
    // compile_test.cc prints `.` in Latin-1 as 2 byte ranges (size 6); UTF-8 adds C2-DF/E0-EF/F0-F4 leads and 3 continuations.
    expect(re2ProgramSize('.')).toBeGreaterThan(6);
    expect(re2ProgramSize('\\pL')).toBeGreaterThan(100);
  });

  it('a ^literal prefix is taken out of the program (RE2::Init RequiredPrefix)', () => {
    expect(re2ProgramSize('^abcdef')).toBe(re2ProgramSize(''));
  });

  it('is undefined for a pattern RE2 does not parse', () => {
    expect(re2ProgramSize('a(?=b)')).toBeUndefined();
  });
});
