// `meshscope drift --expected A.json --actual B.json [-o json|text]` and
// `meshscope drift --config … --proxy POD.NS --dump B.json [-o json|text]` (issue 21 §2), and
// `meshscope drift --bug-report FILE --proxy POD.NS` (the pod's dump in the archive as actual): the per-resource
// drift between two Envoy config dumps — the second form takes meshscope's translation of the proxy as the
// expected side. `-o json` prints the drift body (server/drift/types.ts). Exit 0 in sync, 1 when not (or on
// unusable input), 2 on a usage error.
import { readFile, stat } from 'node:fs/promises';
import { computeDrift, type DriftBody, DriftInputError, DRIFT_TYPES } from '../../drift/index';
import { optionsOf } from '../../model/mesh';
import { configDumpFor } from '../../pipeline/configDump';
import { oneOf, parseArgs, str, UsageError } from '../args';
import { formatTable } from '../format';
import { CONFIG_FLAGS, loadFromArgs, type Io, writeJson } from './common';

/** A dump file larger than this is refused (Envoy dumps of very large meshes are tens of MiB). */
export const MAX_DUMP_FILE_BYTES = 256 * 1024 * 1024;

async function readDumpFile(path: string): Promise<unknown> {
  const st = await stat(path);
  if (!st.isFile()) throw new Error('not a file');
  if (st.size > MAX_DUMP_FILE_BYTES) throw new Error(`larger than ${MAX_DUMP_FILE_BYTES} bytes`);
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`not JSON: ${(e as Error).message}`);
  }
}

export function formatDrift(d: DriftBody, names: { expected: string; actual: string }): string {
  let out = `${d.inSync ? 'In sync' : 'Not in sync'}: ${names.expected} (expected) vs ${names.actual} (actual)\n`;
  out += formatTable(
    ['TYPE', 'SAME', 'CHANGED', 'ONLY IN ACTUAL', 'ONLY IN EXPECTED'],
    DRIFT_TYPES.map((t) => [t, ...(['same', 'changed', 'onlyInEnvoy', 'onlyInMeshscope'] as const).map((k) => String(d.counts[t][k]))]),
  );
  if (d.resources.length > 0) {
    out += '\n';
    const change = (c: string) => (c === 'onlyInEnvoy' ? 'only in actual' : c === 'onlyInMeshscope' ? 'only in expected' : c);
    out += formatTable(
      ['CHANGE', 'TYPE', 'NAME', 'PATHS'],
      d.resources.map((r) => [r.class ? `${change(r.change)} (${r.class})` : change(r.change), r.type, r.name, (r.paths ?? []).join(', ')]),
    );
  }
  if (d.routes.length > 0) {
    out += '\nRoutes (before = expected, after = actual)\n';
    out += formatTable(
      ['CHANGE', 'ROUTE CONFIG', 'VIRTUAL HOST', 'ROUTE', 'DETAIL'],
      d.routes.map((r) => [r.change, r.routeConfig, r.virtualHost, r.route, r.detail ?? '']),
    );
  }
  if (d.nacked.length > 0) {
    out += '\nRejected (NACKed) config\n';
    out += formatTable(
      ['TYPE', 'NAME', 'DETAILS'],
      d.nacked.map((n) => [n.type, n.name, n.details]),
    );
  }
  const ig = d.ignored;
  if (ig.static + ig.warming + ig.draining > 0)
    out += `\nNot compared: ${ig.static} static, ${ig.warming} warming, ${ig.draining} draining\n`;
  return out;
}

export async function driftCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [
    ...CONFIG_FLAGS,
    { name: 'expected', kind: 'string' },
    { name: 'actual', kind: 'string' },
    { name: 'proxy', short: 'p', kind: 'string' },
    { name: 'dump', kind: 'string' },
    { name: 'output', short: 'o', kind: 'string' },
  ]);
  const output = oneOf(args, 'output', ['json', 'text'] as const, 'text');
  const expectedPath = str(args, 'expected');
  if (str(args, 'actual') !== undefined && str(args, 'dump') !== undefined) throw new UsageError('give --actual or --dump, not both');
  const actualPath = str(args, 'actual') ?? str(args, 'dump');
  const proxy = str(args, 'proxy');
  const bugReport = str(args, 'bug-report');
  if (expectedPath !== undefined && proxy !== undefined)
    throw new UsageError('give --expected A.json or --config … --proxy POD.NS, not both');
  if (expectedPath === undefined && proxy === undefined)
    throw new UsageError('--expected A.json, or --config … --proxy POD.NAMESPACE, is required');
  if (!actualPath && !(bugReport !== undefined && proxy !== undefined))
    throw new UsageError(
      "--actual B.json (or --dump B.json; or --bug-report FILE with --proxy: the pod's dump in the archive) is required",
    );

  let expected: unknown;
  let expectedName: string;
  let actual: unknown;
  let actualName = actualPath ?? '';
  if (expectedPath !== undefined) {
    try {
      expected = await readDumpFile(expectedPath);
    } catch (e) {
      io.stderr.write(`error: ${expectedPath}: ${(e as Error).message}\n`);
      return 1;
    }
    expectedName = expectedPath;
  } else {
    const loaded = await loadFromArgs(args, io);
    if (!loaded) return 1;
    const res = configDumpFor(loaded.snapshot, proxy!, { options: optionsOf(loaded.snapshot) });
    if (!res) {
      const known = loaded.snapshot.proxies.map((p) => p.id);
      io.stderr.write(`error: proxy "${proxy}" not found; known proxies: ${known.length ? known.join(', ') : '(none)'}\n`);
      return 1;
    }
    expected = res.dump;
    expectedName = `meshscope's translation of ${proxy}`;
    if (!actualPath && loaded.archive) {
      const { archiveLiveSource } = await import('../../archive/index');
      try {
        actual = (await archiveLiveSource(loaded.archive, '').fetch(proxy!)).configDump;
      } catch (e) {
        io.stderr.write(`error: ${(e as Error).message}\n`);
        return 1;
      }
      actualName = `${proxy}'s dump in ${loaded.archive.source}`;
    }
  }
  if (actualPath) {
    try {
      actual = await readDumpFile(actualPath);
    } catch (e) {
      io.stderr.write(`error: ${actualPath}: ${(e as Error).message}\n`);
      return 1;
    }
  }
  let d: DriftBody;
  try {
    d = computeDrift(expected, actual, output === 'text' ? { withoutBodies: true } : {});
  } catch (e) {
    if (!(e instanceof DriftInputError)) throw e;
    io.stderr.write(`error: ${e.side === 'expected' ? expectedName : actualName}: ${e.message.slice(e.side.length + 2)}\n`);
    return 1;
  }
  if (output === 'json') writeJson(io, d);
  else io.stdout.write(formatDrift(d, { expected: expectedName, actual: actualName }));
  return d.inSync ? 0 : 1;
}
