// `meshscope analyze --config PATH… [-o json|table]` (DESIGN.md §3): findings with Istio's codes
// (server/analyze), each pointing at the object and YAML path. Located load errors are findings too
// (IST0106 / IST0133), so they are printed with the rest, not on stderr. Exit 1 when any finding is an Error.
import { analyze, hasErrors, type Finding } from '../../analyze/index';
import { optionsOf } from '../../model/mesh';
import type { Problem } from '../../model/problem';
import { list, oneOf, parseArgs, str, UsageError } from '../args';
import { formatTable } from '../format';
import { hasUsableInput, loadMesh } from '../load';
import { findingsWithLines } from '../../sources/file/lines';
import { CONFIG_FLAGS, readMeshConfigFlag, writeJson, type Io } from './common';

export const originText = (f: Finding): string =>
  f.origin?.file !== undefined
    ? (f.origin.doc !== undefined ? `${f.origin.file}:${f.origin.doc}` : f.origin.file) +
      (f.origin.line !== undefined ? ` (line ${f.origin.line})` : '')
    : '';

export function formatFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'No validation issues found.\n';
  return formatTable(
    ['LEVEL', 'CODE', 'OBJECT', 'PATH', 'ORIGIN', 'MESSAGE'],
    findings.map((f) => [f.level, f.code, f.object, f.path ?? '', originText(f), f.message]),
  );
}

/**
 * The Istio objects no proxy gets config from, and why: they fail Istio's validation, which istiod's validating
 * webhook enforces (server/model/parse/rejected). Printed after the table; `-o json` keeps the contract (their
 * IST0106 findings are there).
 */
export function formatNotTranslated(problems: readonly Problem[]): string {
  const notes = problems.filter((p) => p.notTranslated);
  if (notes.length === 0) return '';
  const where = (p: Problem) =>
    p.file !== undefined ? ` (${p.file}${p.doc !== undefined ? `:${p.doc}` : ''}${p.line !== undefined ? `, line ${p.line}` : ''})` : '';
  const lines = notes.map((p) => `  ${p.object ?? ''}${where(p)}: ${p.message.replace(/^not translated: /, '')}`);
  return `\nNot translated:\n${lines.join('\n')}\n`;
}

export async function analyzeCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, { name: 'output', short: 'o', kind: 'string' }]);
  const output = oneOf(args, 'output', ['json', 'table'] as const, 'table');
  const paths = list(args, 'config');
  if (paths.length === 0) throw new UsageError('--config PATH is required (files, directories, or - for stdin)');
  const ns = str(args, 'namespace');
  const meshConfig = await readMeshConfigFlag(args);
  const { snapshot, errors, readText } = await loadMesh(paths, {
    ...(ns ? { namespace: ns } : {}),
    ...(io.stdin ? { stdin: io.stdin } : {}),
    ...(meshConfig ? { meshConfig } : {}),
    ...(args.flags['ambient'] === true ? { ambient: true } : {}),
  });
  if (!hasUsableInput(snapshot) && snapshot.errors.length === 0) {
    io.stderr.write('error: nothing usable was loaded from the given --config paths\n');
    return 1;
  }
  const findings = findingsWithLines(analyze(snapshot, { options: optionsOf(snapshot) }).findings, readText);
  if (output === 'json') writeJson(io, findings);
  else io.stdout.write(formatFindings(findings) + formatNotTranslated(errors));
  return hasErrors(findings) ? 1 : 0;
}
