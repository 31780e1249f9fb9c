// One Debian package unpacked into meshscope's cache without root: `apt-get download PKG` + `dpkg-deb -x` into a
// temporary directory beside the target, checked, then moved into place (a failed fetch leaves the old copy). Used
// by scripts/prometheus.mjs (the tests' real Prometheus) and scripts/jemalloc.mjs (serve's allocator).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `sub` in meshscope's cache directory: MESHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/meshscope, else ~/.cache/meshscope. */
export function meshscopeCacheDir(sub) {
  const base = process.env.MESHSCOPE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'meshscope');
  return resolve(base, sub);
}

/**
 * Downloads `pkg` and unpacks it into `dir` (replaced whole), provided the unpacked tree has `mustHave` (a path
 * relative to its root). Returns the .deb's file name, or undefined with why on `log`.
 */
export function unpackDebianPackage(pkg, dir, mustHave, log) {
  mkdirSync(join(dir, '..'), { recursive: true });
  const work = mkdtempSync(join(dir, '..', `${pkg}-fetch-`));
  try {
    const dl = spawnSync('apt-get', ['download', pkg], { cwd: work, encoding: 'utf8', timeout: 300_000 });
    const deb = readdirSync(work).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
    if (dl.status !== 0 || !deb) {
      log(`${pkg}: apt-get download ${pkg} failed: ${(dl.stderr || dl.error?.message || '').trim().split('\n').pop()}`);
      return undefined;
    }
    const out = join(work, 'root');
    const x = spawnSync('dpkg-deb', ['-x', join(work, deb), out], { encoding: 'utf8', timeout: 120_000 });
    if (x.status !== 0) {
      log(`${pkg}: dpkg-deb -x ${deb} failed: ${(x.stderr || x.error?.message || '').trim()}`);
      return undefined;
    }
    if (!existsSync(join(out, mustHave))) {
      log(`${pkg}: ${deb} has no ${mustHave}`);
      return undefined;
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(out, dir);
    log(`${pkg}: ${deb} unpacked into ${dir}`);
    return deb;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
