// Runs the real CLI (bin/meshscope.mjs) as a child process, as a user would.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing/paths';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], input?: string): CliResult {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'meshscope.mjs'), ...args], {
    cwd: REPO_ROOT,
    input,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function cliJson<T = unknown>(args: string[], input?: string): T {
  const r = runCli(args, input);
  if (r.status !== 0) throw new Error(`meshscope ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
