// stop() must leave nothing behind: no restart/backoff timers, no open watch sockets. A child process
// runs the source and must exit on its own (no process.exit) after stop() resolves — well before its
// 120 s restart backoff would fire (the 60 s allowance is only for a slow, busy machine; no timing is asserted).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/paths';
import { service } from './testing/fixtures';
import { startFake } from './testing/harness';
import type { FakeApiServer } from './testing/fakeApiServer';

const PROBE = fileURLToPath(new URL('./testing/stopProbe.ts', import.meta.url));

let fake: FakeApiServer | undefined;
let child: ChildProcessWithoutNullStreams | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); // only our own child, by handle
  child = undefined;
  await fake?.stop();
  fake = undefined;
});

function run(url: string): {
  proc: ChildProcessWithoutNullStreams;
  out: string[];
  waitLine(re: RegExp, ms?: number): Promise<void>;
  exited(): Promise<number | null>;
} {
  const proc = spawn(process.execPath, ['--import', 'tsx', PROBE, url], { cwd: REPO_ROOT });
  const out: string[] = [];
  let buf = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  proc.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    for (const line of parts) {
      out.push(line);
      for (const w of [...waiters]) if (w.re.test(line)) w.resolve();
    }
  });
  proc.stderr.on('data', (d: Buffer) => out.push(`stderr: ${d.toString()}`));
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    out,
    waitLine: (re, ms = 20_000) =>
      out.some((l) => re.test(l))
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const t = setTimeout(() => reject(new Error(`no line ${re} in ${JSON.stringify(out)}`)), ms);
            waiters.push({ re, resolve: () => (clearTimeout(t), resolve()) });
          }),
    exited: () => exit,
  };
}

async function exitsSoonAfterStop(r: ReturnType<typeof run>): Promise<void> {
  r.proc.stdin.write('stop\n');
  await r.waitLine(/^stopped$/);
  const code = await Promise.race([r.exited(), new Promise<'hung'>((res) => setTimeout(() => res('hung'), 60_000).unref())]);
  expect(code, r.out.join('\n')).toBe(0);
}

describe('KubeSource.stop()', () => {
  it('while connected (open watch streams): the process exits by itself', async () => {
    fake = await startFake();
    fake.create(service('default', 'reviews'));
    const r = run(fake.url);
    child = r.proc;
    await r.waitLine(/^started$/);
    await r.waitLine(/^status connected$/);
    await exitsSoonAfterStop(r);
  }, 90_000);

  it('while failing with restart timers pending: the process exits by itself, before the 120 s backoff', async () => {
    fake = await startFake();
    const r = run(fake.url);
    child = r.proc;
    await r.waitLine(/^status connected$/);
    await fake.stop();
    await r.waitLine(/^status failing$/);
    await exitsSoonAfterStop(r);
  }, 90_000);
});
