// `meshscope demo prometheus-config [--config DIR] [--demo-base 127.A.B]`: a ready prometheus.yml for the
// demo's sidecar metrics (1 s scrape, every loopback pod's IP:15020/stats/prometheus). Without --config
// the embedded demo mesh (examples/demo), moved to --demo-base like `serve --demo-base` moves it.
import { resolve } from 'node:path';
import { copyDemoOnBase, isDemoBase, removeDemoCopy } from '../../demo/demoBase';
import { planDemo } from '../../demo/plan';
import { prometheusConfig } from '../../demo/scrapeConfig';
import { optionsOf } from '../../model/mesh';
import { list, parseArgs, str, UsageError } from '../args';
import { loadFromArgs, type Io } from './common';

export async function demoCommand(argv: readonly string[], io: Io, root: string): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'prometheus-config') throw new UsageError(`meshscope demo: unknown subcommand "${sub ?? ''}" (prometheus-config)`);
  const args = parseArgs(rest, [
    { name: 'config', short: 'c', kind: 'string', repeat: true },
    { name: 'demo-base', kind: 'string' },
  ]);
  const base = str(args, 'demo-base');
  if (base !== undefined && !isDemoBase(base))
    throw new UsageError(`--demo-base takes a loopback base 127.A.B (the demo pods become 127.A.B.x), got "${base}"`);
  const given = list(args, 'config');
  if (base !== undefined && given.length > 0)
    throw new UsageError('--demo-base moves the embedded demo mesh: it cannot be used with --config');
  const copy = base !== undefined ? copyDemoOnBase(resolve(root, 'examples', 'demo'), base) : undefined;
  try {
    const paths = given.length > 0 ? given : [copy ?? resolve(root, 'examples', 'demo')];
    const loaded = await loadFromArgs({ ...args, lists: { ...args.lists, config: paths } }, io);
    if (!loaded) return 1;
    const plan = planDemo(loaded.snapshot, optionsOf(loaded.snapshot));
    if (plan.exporters.length === 0) io.stderr.write('meshscope demo: no ready pod with a loopback IP (127.x.y.z): no targets\n');
    io.stdout.write(prometheusConfig(plan.exporters));
    return 0;
  } finally {
    if (copy) removeDemoCopy(copy);
  }
}
