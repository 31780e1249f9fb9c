// `meshscope proxies --config PATH… [-o json|table]`. With `--bug-report`, the table also shows istiod's sync
// state per proxy from the archive's `istio/<ns>/<istiod>/debug/syncz` (CDS LDS RDS EDS and the istiod, as
// `istioctl proxy-status` shows them; server/archive/syncz.ts); `-o json` is unchanged.
import { listProxyInfo } from '../../api/proxyInfo';
import type { SyncStatus } from '../../xds/types';
import { oneOf, parseArgs } from '../args';
import { formatLabels, formatTable } from '../format';
import { CONFIG_FLAGS, loadFromArgs, writeJson, type Io } from './common';

const SYNC_COLUMNS = [
  ['CDS', 'cluster'],
  ['LDS', 'listener'],
  ['RDS', 'route'],
  ['EDS', 'endpoint'],
] as const;

export async function proxiesCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, { name: 'output', short: 'o', kind: 'string' }]);
  const output = oneOf(args, 'output', ['json', 'table'] as const, 'table');
  const loaded = await loadFromArgs(args, io);
  if (!loaded) return 1;
  const proxies = listProxyInfo(loaded.snapshot);
  if (output === 'json') {
    writeJson(io, proxies);
    return 0;
  }
  let sync = new Map<string, SyncStatus>();
  if (loaded.archive) {
    const { archiveSyncz } = await import('../../archive/syncz');
    const read = archiveSyncz(loaded.archive);
    for (const e of read.errors) io.stderr.write(`${e.file}: ${e.message}\n`);
    sync = new Map(read.entries.flatMap((e) => (e.proxy ? [[e.proxy, e] as const] : [])).reverse());
  }
  const withSync = sync.size > 0;
  const head = ['ID', 'TYPE', 'NAMESPACE', 'IPS', 'LABELS', ...(withSync ? [...SYNC_COLUMNS.map(([h]) => h), 'ISTIOD'] : [])];
  const cells = (id: string): string[] => {
    if (!withSync) return [];
    const e = sync.get(id);
    return e ? [...SYNC_COLUMNS.map(([, t]) => e.sync?.[t] ?? 'NOT SENT'), e.istiod ?? ''] : [...SYNC_COLUMNS.map(() => '-'), '-'];
  };
  io.stdout.write(
    formatTable(
      head,
      proxies.map((p) => [p.id, p.type, p.namespace, p.ips.join(','), formatLabels(p.labels), ...cells(p.id)]),
    ),
  );
  return 0;
}
