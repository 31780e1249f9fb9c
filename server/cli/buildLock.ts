// A cross-process lock around `next build`, so two `meshscope serve` started together (e.g. the two
// Playwright web servers) build once: the second waits, then finds the build up to date.
// The lock is a directory holding the owner's pid; a lock whose owner is gone is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export async function withLock<T>(dir: string, fn: () => Promise<T>, opts: { pollMs?: number; timeoutMs?: number } = {}): Promise<T> {
  const poll = opts.pollMs ?? 250;
  const deadline = Date.now() + (opts.timeoutMs ?? 15 * 60_000);
  const owner = join(dir, 'pid');
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let pid = NaN;
      try {
        pid = Number(readFileSync(owner, 'utf8'));
      } catch {
        /* the owner is between mkdir and writing its pid */
      }
      if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(dir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${dir} (held by pid ${pid})`);
      else await new Promise((r) => setTimeout(r, poll));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
