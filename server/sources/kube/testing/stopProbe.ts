// TEST-ONLY child process for kubeSource.stop.test.ts: runs a KubeSource against the fake API
// server at argv[2], reports its state on stdout, and calls stop() when told to on stdin. It never
// calls process.exit: the test checks that the process ends by itself once stop() resolved.
import { createInterface } from 'node:readline';
import { KubeSource } from '../kubeSource';
import { kubeConfigFor } from './fixtures';
import type { SourceSink } from '../../types';

const url = process.argv[2] ?? '';
const say = (msg: string) => process.stdout.write(msg + '\n');
const sink: SourceSink = {
  replace: () => undefined,
  upsert: () => undefined,
  remove: () => undefined,
  status: (s) => say(`status ${s.state}`),
};
// A long backoff: a restart timer left behind would keep the process alive for 120 s.
const source = new KubeSource('probe', { kubeConfig: kubeConfigFor(url), backoff: { initialMs: 120_000, maxMs: 120_000 } });
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'stop') return;
  lines.close();
  process.stdin.destroy();
  void source.stop().then(() => say('stopped'));
});
void source.start(sink).then(() => say('started'));
