// The bench's child processes (pushServer.ts, clientProc.ts) read one JSON command per line on stdin and answer in
// JSON lines on stdout: ServerChild speaks that; quitChild asks one to quit and waits for it to exit, killing it
// after 5 s (a wedged child never holds up the bench).
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

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

/** A bench child spoken to in JSON lines: `{event}` lines are kept (a later `next` finds them), `{reply}` answers a command. */
export class ServerChild {
  readonly events: Array<Record<string, unknown>> = [];
  private waiters: Array<(o: Record<string, unknown>) => void> = [];
  constructor(readonly proc: ChildProcess) {
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (l) => {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(l) as Record<string, unknown>;
      } catch {
        return;
      }
      if (o.event) this.events.push(o);
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f(o);
    });
  }
  next(pred: (o: Record<string, unknown>) => boolean, timeoutMs = 600_000): Promise<Record<string, unknown>> {
    const seen = this.events.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('bench server did not answer')), timeoutMs);
      const wait = (o: Record<string, unknown>) => {
        if (pred(o)) {
          clearTimeout(t);
          resolve(o);
        } else this.waiters.push(wait);
      };
      this.waiters.push(wait);
    });
  }
  async command(cmd: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const p = this.next((o) => o.reply === cmd);
    this.proc.stdin!.write(`${JSON.stringify({ cmd, ...args })}\n`);
    return p;
  }
  quit(): Promise<void> {
    return quitChild(this.proc);
  }
}
