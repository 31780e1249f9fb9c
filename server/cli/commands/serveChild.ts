// Runs `next start` as the child of `meshscope serve` with an IPC channel (childLink.ts): prints the
// addresses the child really bound, says so loudly when ADS could not bind, forwards SIGINT/SIGTERM/
// SIGHUP to the child, and resolves with its exit status. If this process dies without forwarding
// (SIGKILL), the child notices the closed channel and exits by itself.
import { type ChildProcess, spawn } from 'node:child_process';
import { isReadyMessage, PARENT_PID_ENV, type ReadyMessage } from '../childLink';

export interface ChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Called once with the child's report (bound addresses, ADS state). */
  onReady?: (m: ReadyMessage) => void;
}

const SIGNAL_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15, SIGKILL: 9 };

/** Forwards SIGINT/SIGTERM/SIGHUP to `child` (SIGHUP as SIGTERM: Next.js shuts down on that) and resolves with its status. */
function supervise(child: ChildProcess): Promise<number> {
  return new Promise((done) => {
    const forwards = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((sig) => {
      const fn = () => {
        if (child.exitCode === null && child.signalCode === null) child.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig);
      };
      process.on(sig, fn);
      return () => process.off(sig, fn);
    });
    child.on('error', () => done(1));
    child.on('exit', (code, signal) => {
      for (const off of forwards) off();
      done(code ?? (signal ? 128 + (SIGNAL_CODES[signal] ?? 15) : 1));
    });
  });
}

/** The server child: IPC channel open, its ready report passed to `onReady` once. */
export function runChild(cmd: string, args: string[], opts: ChildOptions): Promise<number> {
  const child = spawn(cmd, args, {
    cwd: opts.cwd,
    env: { ...opts.env, [PARENT_PID_ENV]: String(process.pid) },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  let reported = false;
  child.on('message', (m: unknown) => {
    if (reported || !isReadyMessage(m)) return;
    reported = true;
    opts.onReady?.(m);
  });
  return supervise(child);
}

/** A plain child (the build): no IPC. */
export const runPlain = (cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> =>
  supervise(spawn(cmd, args, { ...opts, stdio: 'inherit' }));
