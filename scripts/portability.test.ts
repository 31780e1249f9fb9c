// No absolute path of any machine in the source: tests and helpers resolve ../shared relative to the repo
// (scripts/fixtures.mjs, server/testing/paths.ts), never through a path that exists on one machine only.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './fixtures.mjs';

/** A string literal holding an absolute path into a home, workspace or mount: machine-specific. */
export const MACHINE_PATH =
  /['"`](?:\/(?:home|Users|work|workspace|root|mnt|media)\/[^'"`\s]*|[A-Za-z]:\\\\[^'"`\s]*|(?:\/[\w.-]+)+\/shared\/(?:fixtures|reference)\b[^'"`\s]*)/;

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;

describe('portability', () => {
  it('no source file holds an absolute machine path', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => SOURCE.test(f) && !f.startsWith('server/gen/'));
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) =>
      readFileSync(join(REPO_ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (MACHINE_PATH.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('the pattern catches machine paths and lets ordinary ones through', () => {
    // Built from parts so that this file holds no machine path itself.
    const quoted = (...parts: string[]) => `'/${parts.join('/')}'`;
    for (const bad of [
      quoted('work', 'shared', 'fixtures', 'x.json'),
      quoted('home', 'ann', 'repo'),
      quoted('Users', 'bob'),
      quoted('opt', 'ci', 'shared', 'fixtures'),
    ]) {
      expect(MACHINE_PATH.test(bad), bad).toBe(true);
    }
    for (const ok of ["'/usr/bin/chromium'", "'/api/proxies'", "'../shared/fixtures'", "'/tmp'", "'/abs/dir'"]) {
      expect(MACHINE_PATH.test(ok), ok).toBe(false);
    }
  });
});
