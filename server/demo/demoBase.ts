// The embedded demo mesh on another loopback base: its pods carry 127.0.1.x (examples/demo); with
// `serve --demo-base 127.0.N` the runtime loads a copy of those files with every `127.0.1.` replaced by
// `127.0.N.`, so two demos (or a test beside a running demo) never compete for the same addresses.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_DEMO_BASE = '127.0.1';
export const DEMO_BASE_PATTERN = /^127\.(\d{1,3})\.(\d{1,3})$/;

/** Whether `base` is `127.A.B` with A and B in 0–255. */
export function isDemoBase(base: string): boolean {
  const m = DEMO_BASE_PATTERN.exec(base);
  return m !== null && Number(m[1]) <= 255 && Number(m[2]) <= 255;
}

/** A temp copy of the demo files in `src` on `base` (the caller removes it with `removeDemoCopy`). */
export function copyDemoOnBase(src: string, base: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-demo-'));
  for (const f of readdirSync(src)) {
    if (!/\.ya?ml$/.test(f)) continue;
    writeFileSync(join(dir, f), readFileSync(join(src, f), 'utf8').replaceAll(`${DEFAULT_DEMO_BASE}.`, `${base}.`));
  }
  return dir;
}

export function removeDemoCopy(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
