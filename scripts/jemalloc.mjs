#!/usr/bin/env node
// jemalloc for `meshscope serve` on a machine where installing Debian's libjemalloc2 is not possible (no root):
// `apt-get download libjemalloc2` + `dpkg-deb -x` into the cache directory that server/cli/allocator.ts looks in
// (MESHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/meshscope, else ~/.cache/meshscope, then `jemalloc/`). Idempotent.
// The image installs the package instead (Dockerfile). `node scripts/jemalloc.mjs` prints the library's path.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TRIPLES = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

export function jemallocCacheDir() {
  const base = process.env.MESHSCOPE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'meshscope');
  return resolve(base, 'jemalloc');
}

const cachedLib = () => join(jemallocCacheDir(), 'usr', 'lib', TRIPLES[process.arch] ?? 'none', 'libjemalloc.so.2');

/** The cached library's path, fetching the package first when it is not there; undefined (with why on stderr) when it cannot be had. */
export function ensureJemalloc({ log = (line) => console.error(line) } = {}) {
  if (existsSync(cachedLib())) return cachedLib();
  if (process.platform !== 'linux' || !TRIPLES[process.arch]) {
    log(`jemalloc: no Debian package for ${process.platform}/${process.arch}`);
    return undefined;
  }
  const dir = jemallocCacheDir();
  mkdirSync(join(dir, '..'), { recursive: true });
  const work = mkdtempSync(join(dir, '..', 'jemalloc-fetch-'));
  try {
    const dl = spawnSync('apt-get', ['download', 'libjemalloc2'], { cwd: work, encoding: 'utf8', timeout: 300_000 });
    const deb = readdirSync(work).find((f) => /^libjemalloc2_.*\.deb$/.test(f));
    if (dl.status !== 0 || !deb) {
      log(`jemalloc: apt-get download libjemalloc2 failed: ${(dl.stderr || dl.error?.message || '').trim().split('\n').pop()}`);
      return undefined;
    }
    const out = join(work, 'root');
    const x = spawnSync('dpkg-deb', ['-x', join(work, deb), out], { encoding: 'utf8', timeout: 120_000 });
    if (x.status !== 0) {
      log(`jemalloc: dpkg-deb -x ${deb} failed: ${(x.stderr || x.error?.message || '').trim()}`);
      return undefined;
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(out, dir);
    if (!existsSync(cachedLib())) {
      log(`jemalloc: ${deb} has no ${cachedLib()}`);
      return undefined;
    }
    log(`jemalloc: ${deb} unpacked into ${dir}`);
    return cachedLib();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const lib = ensureJemalloc();
  if (!lib) process.exit(1);
  console.log(lib);
}
