// `meshscope translate --config PATH… --proxy POD.NAMESPACE [--type listeners|routes|clusters|endpoints|all]
// [--explain-patches]`
// Prints the ConfigDump istiod's /debug/config_dump?proxyID= would print. With --explain-patches, also prints on
// stderr, as JSON, what GET /api/proxies/POD.NS gives as `envoyFilters` (per EnvoyFilter patch: applied, where, why not).
import { optionsOf } from '../../model/mesh';
import { configDumpFor, DUMP_TYPES, writeJsonPieces } from '../../pipeline/configDump';
import { oneOf, parseArgs, str, UsageError } from '../args';
import { CONFIG_FLAGS, loadFromArgs, reportErrors, type Io } from './common';

export async function translateCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [
    ...CONFIG_FLAGS,
    { name: 'proxy', short: 'p', kind: 'string' },
    { name: 'type', short: 't', kind: 'string' },
    { name: 'explain-patches', kind: 'boolean' },
  ]);
  const proxy = str(args, 'proxy');
  if (!proxy) throw new UsageError('--proxy POD.NAMESPACE is required');
  const type = oneOf(args, 'type', DUMP_TYPES, 'all');
  const loaded = await loadFromArgs(args, io);
  if (!loaded) return 1;
  const res = configDumpFor(loaded.snapshot, proxy, { type, options: optionsOf(loaded.snapshot) });
  if (!res) {
    const known = loaded.snapshot.proxies.map((p) => p.id);
    io.stderr.write(`error: proxy "${proxy}" not found; known proxies: ${known.length ? known.join(', ') : '(none)'}\n`);
    return 1;
  }
  // Translation problems are located errors too (input errors were printed while loading).
  const inputErrors = new Set(loaded.errors);
  reportErrors(
    res.errors.filter((e) => !inputErrors.has(e)),
    io,
  );
  if (args.flags['explain-patches'] === true) io.stderr.write(`${JSON.stringify(res.envoyFilters, null, 2)}\n`);
  // writeJson's text, written in pieces (a gateway's dump is tens of MB).
  writeJsonPieces(res.dump, (text) => io.stdout.write(text));
  return 0;
}
