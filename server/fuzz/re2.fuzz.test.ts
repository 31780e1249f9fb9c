// Fuzzing the RE2 module (issue #25 §1, §3): random patterns from RE2's grammar plus random strings.
// Properties: compiling never throws (an error is Go's text); matching and GlobalReplace never throw; a
// quoted literal full-matches itself (RE2's QuoteMeta contract); GlobalReplace's output is bounded by its
// input and rewrite sizes (each input position is copied once and each match rewritten once); the program
// size is computed or refused, never a crash.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compileRe2 } from '../lib/re2';
import { re2Program } from '../lib/re2ProgramSize';
import { fuzzParams, fuzzTimeout } from '../testing/fuzz';

const atom = fc.oneof(
  fc.constantFrom(
    'a',
    'b',
    '.',
    '\\d',
    '\\w',
    '\\s',
    '\\pL',
    '[a-c]',
    '[^/]',
    '(?i)k',
    'é',
    '\\.',
    '^',
    '$',
    '\\b',
    '(?=x)',
    '\\1',
    '[',
    ')',
  ),
  fc.string({ maxLength: 3 }),
);
const pattern: fc.Arbitrary<string> = fc.letrec<{ p: string }>((tie) => ({
  p: fc.oneof(
    { depthSize: 'small' },
    atom,
    fc.tuple(tie('p'), tie('p')).map(([a, b]) => a + b),
    fc.tuple(tie('p'), tie('p')).map(([a, b]) => `${a}|${b}`),
    fc.tuple(tie('p'), fc.constantFrom('*', '+', '?', '*?', '{2}', '{1,3}', '++', '{1001}')).map(([a, q]) => `(${a})${q}`),
    tie('p').map((a) => `(?:${a})`),
  ),
})).p;

describe('fuzz: RE2', () => {
  it(
    'random patterns and inputs: no throw, literal self-match, GlobalReplace bounded',
    () => {
      fc.assert(
        fc.property(pattern, fc.string({ maxLength: 40 }), fc.string({ maxLength: 6 }), (p, input, lit) => {
          const r = compileRe2(p);
          if (!r.ok) {
            expect(r.error).toMatch(/^error parsing regexp: /);
            return;
          }
          r.re.fullMatch(input);
          r.re.partialMatch(input);
          const out = r.re.globalReplace(input, '<\\0>');
          if (out !== undefined) expect(out.length).toBeLessThanOrEqual(input.length + (input.length + 1) * (input.length + 2) + 1);
          const size = re2Program(p);
          expect(size === undefined || size.size >= 1).toBe(true);
          const q = compileRe2(RE2JS.quote(lit));
          expect(q.ok && q.re.fullMatch(lit)).toBe(true);
        }),
        fuzzParams(100),
      );
    },
    fuzzTimeout(100, 100),
  );
});
