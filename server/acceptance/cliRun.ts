// Runs the real CLI (bin/meshscope.mjs) as a child process, as a user would.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/paths';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Extra environment (over this process's, NO_COLOR set) and limits for runs with big outputs. */
export interface CliRunOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  maxBuffer?: number;
}

export function runCli(args: string[], input?: string, opts: CliRunOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), ...args], {
    cwd: REPO_ROOT,
    input,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    ...(opts.maxBuffer ? { maxBuffer: opts.maxBuffer } : {}),
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function cliJson<T = unknown>(args: string[], input?: string): T {
  const r = runCli(args, input);
  if (r.status !== 0) throw new Error(`meshscope ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
