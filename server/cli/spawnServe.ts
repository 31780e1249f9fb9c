// Starts a real `meshscope serve` (node bin/meshscope.mjs → tsx → next start child) and waits for
// its start-up line, which carries the addresses it really bound. For tests and `npm run soak`;
// builds the Next app first when the build is stale (minutes on a small machine).
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServeProcess {
  proc: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  http: string;
  httpPort: number;
  /** `127.0.0.1:PORT`, undefined when ADS is not listening. */
  xds?: string;
  /** The start-up line. */
  line: string;
  stderr(): string;
  /** Pid of the `next start` child (the process holding the ports). */
  childPid(): number | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process exited. */
  stop(graceMs?: number): Promise<void>;
}

const READY = /^meshscope: serving .* on (http:\/\/\S+?:(\d+))(?:,| \()(.*)$/m;

/** Direct children of `pid`, from /proc (Linux). */
export function childrenOf(pid: number): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      if (Number(fields[1]) === pid) out.push({ pid: Number(d), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // raced with an exiting process
    }
  }
  return out;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export function spawnServe(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; echo?: boolean } = {},
): Promise<ServeProcess> {
  const proc = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), 'serve', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stdout?.on('data', (b: Buffer) => {
    if (opts.echo) process.stdout.write(b);
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const stop = async (graceMs = 5_000) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(t);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(1_000);
      reject(new Error(`meshscope serve did not report ready in ${opts.timeoutMs ?? 600_000} ms:\n${err}`));
    }, opts.timeoutMs ?? 600_000);
    let ready = false;
    proc.once('exit', (code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`meshscope serve exited (${code}) before it was ready:\n${err}`));
    });
    proc.stderr?.on('data', (b: Buffer) => {
      if (opts.echo) process.stderr.write(b);
      err += b.toString();
      const m = READY.exec(err);
      if (ready || !m || !m[1]) return;
      ready = true;
      clearTimeout(timer);
      const xds = /xDS (\S+?:\d+)[,)]/.exec(m[0])?.[1];
      resolve({
        proc,
        http: m[1],
        httpPort: Number(m[2]),
        ...(xds ? { xds } : {}),
        line: m[0],
        stderr: () => err,
        childPid: () => childrenOf(proc.pid ?? -1).find((c) => c.comm.startsWith('next-server') || c.comm === 'node')?.pid,
        stop,
      });
    });
  });
}
