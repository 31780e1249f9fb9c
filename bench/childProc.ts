// The bench's child processes (pushServer.ts, clientProc.ts) read one JSON command per line on stdin; this asks
// one to quit and waits for it to exit, killing it after 5 s (a wedged child never holds up the bench).
import type { ChildProcess } from 'node:child_process';

export async function quitChild(proc: ChildProcess): Promise<void> {
  proc.stdin!.write(`${JSON.stringify({ cmd: 'quit' })}\n`);
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve();
    }, 5000);
    proc.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}
