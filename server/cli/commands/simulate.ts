// `meshscope simulate --config PATH… --proxy POD.NS --mode outbound|inbound|gateway|waypoint [--address IP] --port N
//   [--host AUTHORITY] [--path /p?q] [--method GET] [-H 'k: v']… [--protocol http|http2|tcp]
//   [--tls plaintext|tls|mtls] [--sni NAME] [--source-principal spiffe://…] [--source-namespace NS] [--source-ip IP]`, or `--dump config_dump.json` instead of --config + --proxy.
// `--bug-report ARCHIVE --proxy POD.NS --on dump` simulates on the pod's own Envoy dump in the archive instead of
// meshscope's translation (`--on meshscope`, the default): "simulate on either side" offline (issue 21 §3).
// Prints the simulator's JSON (server/simulate); `{"error": …}` results still exit 0 (DESIGN.md §3).
import { readFile } from 'node:fs/promises';
import { optionsOf } from '../../model/mesh';
import { parse as parseYaml } from 'yaml';
import { readConfigDump } from '../../envoy/dumpReader';
import { simulateProxy } from '../../simulateMesh/simulateProxy';
import { simulate } from '../../simulate/index';
import { list, oneOf, parseArgs, portFlag, str, UsageError, type ParsedArgs } from '../args';
import type { SimRequest } from '../../simulate/types';
import { isIP } from '../../model/schema/rules';
import { CONFIG_FLAGS, loadFromArgs, writeJson, type Io } from './common';

/** The simulator's request with every CLI default filled in. */
export type SimulateRequest = SimRequest & Required<Pick<SimRequest, 'path' | 'method' | 'headers' | 'protocol' | 'tls'>>;

const FLAGS = [
  ...CONFIG_FLAGS,
  { name: 'proxy', short: 'p', kind: 'string' },
  { name: 'dump', kind: 'string' },
  { name: 'on', kind: 'string' },
  { name: 'mode', kind: 'string' },
  { name: 'address', kind: 'string' },
  { name: 'port', kind: 'string' },
  { name: 'host', kind: 'string' },
  { name: 'path', kind: 'string' },
  { name: 'method', short: 'X', kind: 'string' },
  { name: 'header', short: 'H', kind: 'string', repeat: true },
  { name: 'protocol', kind: 'string' },
  { name: 'tls', kind: 'string' },
  { name: 'sni', kind: 'string' },
  { name: 'source-principal', kind: 'string' },
  { name: 'source-namespace', kind: 'string' },
  { name: 'source-ip', kind: 'string' },
] as const;

export function parseSimulateRequest(args: ParsedArgs): SimulateRequest {
  if (str(args, 'port') === undefined) throw new UsageError('--port N is required');
  const port = portFlag(args, 'port', 0);
  const headers: Record<string, string> = {};
  for (const h of list(args, 'header')) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`-H must look like 'name: value', got "${h}"`);
    headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
  }
  const req: SimulateRequest = {
    mode: oneOf(args, 'mode', ['outbound', 'inbound', 'gateway', 'waypoint'] as const, 'outbound'),
    port,
    path: str(args, 'path') ?? '/',
    method: (str(args, 'method') ?? 'GET').toUpperCase(),
    headers,
    protocol: oneOf(args, 'protocol', ['http', 'http2', 'tcp'] as const, 'http'),
    tls: oneOf(args, 'tls', ['plaintext', 'tls', 'mtls'] as const, 'plaintext'),
  };
  const address = str(args, 'address');
  if (address) req.address = address;
  const host = str(args, 'host');
  if (host) req.host = host;
  const sni = str(args, 'sni');
  if (sni) req.sni = sni;
  const principal = str(args, 'source-principal');
  if (principal) req.sourcePrincipal = principal;
  const sourceNs = str(args, 'source-namespace');
  if (sourceNs) req.sourceNamespace = sourceNs;
  const sourceIp = str(args, 'source-ip');
  if (sourceIp) {
    if (!isIP(sourceIp)) throw new UsageError(`--source-ip must be an IP address, got "${sourceIp}"`);
    req.sourceIp = sourceIp;
  }
  if (!req.path.startsWith('/')) throw new UsageError(`--path must start with /, got "${req.path}"`);
  return req;
}

/** `--on dump`: the pod's dump in the `--bug-report` archive, simulated as `--dump` would be. */
async function simulateOnArchiveDump(args: ParsedArgs, request: SimulateRequest, io: Io): Promise<number> {
  const archivePath = str(args, 'bug-report');
  const proxy = str(args, 'proxy');
  if (archivePath === undefined || !proxy)
    throw new UsageError("--on dump needs --bug-report ARCHIVE and --proxy POD.NAMESPACE (the pod's dump in the archive)");
  const { archiveLiveSource, readArchive } = await import('../../archive/index');
  let dump: unknown;
  let where: string;
  try {
    const archive = await readArchive(archivePath);
    dump = (await archiveLiveSource(archive, '').fetch(proxy)).configDump;
    where = `${archive.source}: ${proxy}`;
  } catch (e) {
    io.stderr.write(`error: --bug-report ${(e as Error).message}\n`);
    return 1;
  }
  const { config, errors } = readConfigDump(dump);
  for (const e of errors) io.stderr.write(`${where}: ${e}\n`);
  writeJson(io, simulate(config, request));
  return 0;
}

export async function simulateCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  const request = parseSimulateRequest(args);
  const on = oneOf(args, 'on', ['meshscope', 'dump'] as const, 'meshscope');
  const dumpPath = str(args, 'dump');
  if (on === 'dump') {
    if (dumpPath) throw new UsageError("give --dump FILE or --on dump (the pod's dump in --bug-report), not both");
    return simulateOnArchiveDump(args, request, io);
  }
  if (dumpPath) {
    let dump: unknown;
    try {
      // JSON (a config_dump); YAML too, as Envoy's router_check_tool reads a route table from either.
      const text = await readFile(dumpPath, 'utf8');
      dump = /\.ya?ml$/i.test(dumpPath) ? parseYaml(text) : JSON.parse(text);
    } catch (e) {
      io.stderr.write(`error: ${dumpPath}: ${(e as Error).message}\n`);
      return 1;
    }
    const { config, errors } = readConfigDump(dump);
    for (const e of errors) io.stderr.write(`${dumpPath}: ${e}\n`);
    writeJson(io, simulate(config, request));
    return 0;
  }
  const proxy = str(args, 'proxy');
  if (!proxy) throw new UsageError('--proxy POD.NAMESPACE (or --dump FILE) is required');
  const loaded = await loadFromArgs(args, io);
  if (!loaded) return 1;
  const result = simulateProxy(loaded.snapshot, proxy, request, { options: optionsOf(loaded.snapshot) });
  if (!result) {
    io.stderr.write(`error: proxy "${proxy}" not found\n`);
    return 1;
  }
  writeJson(io, result);
  return 0;
}
