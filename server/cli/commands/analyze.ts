// `meshscope analyze --config PATH… [-o json|table]` (DESIGN.md §3): findings with Istio's codes
// (server/analyze), each pointing at the object and YAML path. Located load errors are findings too
// (IST0106 / IST0133), so they are printed with the rest, not on stderr. Exit 1 when any finding is an Error.
import { analyze, hasErrors, type Finding } from '../../analyze/index';
import { optionsOf } from '../../model/mesh';
import { list, oneOf, parseArgs, str, UsageError } from '../args';
import { formatTable } from '../format';
import { hasUsableInput, loadMesh } from '../load';
import { CONFIG_FLAGS, readMeshConfigFlag, writeJson, type Io } from './common';

export const originText = (f: Finding): string =>
  f.origin?.file !== undefined ? (f.origin.doc !== undefined ? `${f.origin.file}:${f.origin.doc}` : f.origin.file) : '';

export function formatFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'No validation issues found.\n';
  return formatTable(
    ['LEVEL', 'CODE', 'OBJECT', 'PATH', 'ORIGIN', 'MESSAGE'],
    findings.map((f) => [f.level, f.code, f.object, f.path ?? '', originText(f), f.message]),
  );
}

export async function analyzeCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, { name: 'output', short: 'o', kind: 'string' }]);
  const output = oneOf(args, 'output', ['json', 'table'] as const, 'table');
  const paths = list(args, 'config');
  if (paths.length === 0) throw new UsageError('--config PATH is required (files, directories, or - for stdin)');
  const ns = str(args, 'namespace');
  const meshConfig = await readMeshConfigFlag(args);
  const { snapshot } = await loadMesh(paths, {
    ...(ns ? { namespace: ns } : {}),
    ...(io.stdin ? { stdin: io.stdin } : {}),
    ...(meshConfig ? { meshConfig } : {}),
  });
  if (!hasUsableInput(snapshot) && snapshot.errors.length === 0) {
    io.stderr.write('error: nothing usable was loaded from the given --config paths\n');
    return 1;
  }
  const { findings } = analyze(snapshot, { options: optionsOf(snapshot) });
  if (output === 'json') writeJson(io, findings);
  else io.stdout.write(formatFindings(findings));
  return hasErrors(findings) ? 1 : 0;
}
