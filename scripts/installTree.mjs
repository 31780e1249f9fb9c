// Generated trees (server/gen from gen-proto.mjs) are built aside and moved in file by file: every file of
// the new tree replaces its old version with one rename(2) (atomic on one filesystem), the named `last` files
// (the registry and the stamp) after all the others, and files the new tree no longer has are removed only
// at the end. A process reading the tree meanwhile (`meshscope serve` from the same checkout while
// `npm install` regenerates) sees every file whole — its old or its new version — never a half-written or
// missing one (issue #25).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

function walk(dir, base = dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else out.push(relative(base, p));
  }
  return out;
}

/**
 * Moves the files of `from` into `to` (created when missing) as described above; `from` must be on the
 * same filesystem (a directory beside `to`) and is removed afterwards. `last`: paths relative to the tree.
 */
export function installTree(from, to, { last = [] } = {}) {
  const files = walk(from).sort();
  const lastSet = new Set(last.map((f) => f.split('/').join(sep)));
  mkdirSync(to, { recursive: true });
  const move = (f) => {
    mkdirSync(dirname(join(to, f)), { recursive: true });
    renameSync(join(from, f), join(to, f));
  };
  for (const f of files) if (!lastSet.has(f)) move(f);
  for (const f of files) if (lastSet.has(f)) move(f);
  const keep = new Set(files);
  for (const f of existsSync(to) ? walk(to) : []) if (!keep.has(f)) rmSync(join(to, f), { force: true });
  rmSync(from, { recursive: true, force: true });
}

/** A fresh build directory beside `to` (same filesystem), after removing leftovers of interrupted builds. */
export function buildDirBeside(to, tag = 'tmp') {
  const parent = dirname(to);
  const prefix = `.${to.slice(parent.length + 1)}-${tag}-`;
  for (const name of existsSync(parent) ? readdirSync(parent) : [])
    if (name.startsWith(prefix)) rmSync(join(parent, name), { recursive: true, force: true });
  const dir = join(parent, `${prefix}${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
