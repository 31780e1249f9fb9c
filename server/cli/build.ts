// Whether the Next app needs (re)building: `.next/BUILD_ID` missing or older than any app source.
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIRS = ['app', 'components', 'server'];
const SOURCE_FILES = ['next.config.ts', 'instrumentation.ts', 'proxy.ts', 'package.json', 'tsconfig.json'];
const SKIP = new Set(['node_modules', '.next', 'testdata', 'gen']);

function newestMtime(dir: string): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (/\.(ts|tsx|css|json|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** The Next build directory: `.next`, or MESHSCOPE_DIST_DIR (see next.config.ts). */
export const distDir = (): string => process.env.MESHSCOPE_DIST_DIR || '.next';

export function buildStatus(root: string): { needed: boolean; reason: string } {
  const id = join(root, distDir(), 'BUILD_ID');
  if (!existsSync(id)) return { needed: true, reason: `${distDir()}/BUILD_ID is missing` };
  const built = statSync(id).mtimeMs;
  let newest = 0;
  for (const d of SOURCE_DIRS) newest = Math.max(newest, newestMtime(join(root, d)));
  for (const f of SOURCE_FILES) if (existsSync(join(root, f))) newest = Math.max(newest, statSync(join(root, f)).mtimeMs);
  return newest > built ? { needed: true, reason: 'sources changed since the last build' } : { needed: false, reason: 'up to date' };
}

/**
 * Runs `fn` (a `next build`) and puts `file` back byte-for-byte, with its old mtime, if it changed:
 * `next build` rewrites tsconfig.json when its `include` lacks `.next/dev/types/**` — a file this
 * command does not own. A no-op once tsconfig.json has that entry.
 */
export async function preservingFile<T>(file: string, fn: () => Promise<T>): Promise<T> {
  let before: { bytes: Buffer; atime: Date; mtime: Date } | undefined;
  try {
    const st = statSync(file);
    before = { bytes: readFileSync(file), atime: st.atime, mtime: st.mtime };
  } catch {
    before = undefined;
  }
  try {
    return await fn();
  } finally {
    if (before && existsSync(file) && !readFileSync(file).equals(before.bytes)) {
      writeFileSync(file, before.bytes);
      utimesSync(file, before.atime, before.mtime);
    }
  }
}
