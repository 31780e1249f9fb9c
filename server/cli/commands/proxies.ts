// `meshscope proxies --config PATH… [-o json|table]`
import { listProxyInfo } from '../../api/proxyInfo';
import { oneOf, parseArgs } from '../args';
import { formatLabels, formatTable } from '../format';
import { CONFIG_FLAGS, loadFromArgs, writeJson, type Io } from './common';

export async function proxiesCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, { name: 'output', short: 'o', kind: 'string' }]);
  const output = oneOf(args, 'output', ['json', 'table'] as const, 'table');
  const loaded = await loadFromArgs(args, io);
  if (!loaded) return 1;
  const proxies = listProxyInfo(loaded.snapshot);
  if (output === 'json') writeJson(io, proxies);
  else
    io.stdout.write(
      formatTable(
        ['ID', 'TYPE', 'NAMESPACE', 'IPS', 'LABELS'],
        proxies.map((p) => [p.id, p.type, p.namespace, p.ips.join(','), formatLabels(p.labels)]),
      ),
    );
  return 0;
}
