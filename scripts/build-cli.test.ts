// The compiled CLI never runs stale code: any source newer than the bundle makes it stale (and the bin
// then rebuilds it); test files and testdata do not count.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBundleStale } from './build-cli.mjs';

describe('cliBundleStale', () => {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-cli-stale-'));
  const src = join(dir, 'server');
  mkdirSync(join(src, 'cli'), { recursive: true });
  const bundle = join(dir, 'main.mjs');
  const at = (file: string, seconds: number) => {
    writeFileSync(file, '');
    utimesSync(file, seconds, seconds);
  };

  it('is stale without a bundle, fresh after one newer than every source, stale again after an edit', () => {
    at(join(src, 'cli', 'main.ts'), 1000);
    expect(cliBundleStale(bundle, [src])).toBe(true);
    at(bundle, 2000);
    expect(cliBundleStale(bundle, [src])).toBe(false);
    at(join(src, 'cli', 'main.ts'), 3000);
    expect(cliBundleStale(bundle, [src])).toBe(true);
  });

  it('ignores tests and testdata', () => {
    at(bundle, 5000);
    at(join(src, 'cli', 'main.test.ts'), 6000);
    mkdirSync(join(src, 'testdata'), { recursive: true });
    at(join(src, 'testdata', 'x.yaml'), 6000);
    expect(cliBundleStale(bundle, [src])).toBe(false);
  });
});
