// `meshscope check --config BASE… [--draft FILE…] --contracts FILE [-o json|text]` (DESIGN.md §3): routing
// contracts (README "Routing contracts") run through the simulator on the base, or on the draft over it.
// Exit 1 when a contract fails (for CI on a pull request that changes mesh config), 2 on a usage error.
import { readFile } from 'node:fs/promises';
import { optionsOf } from '../../model/mesh';
import { parseContracts } from '../../sandbox/contracts';
import { evaluate } from '../../sandbox/evaluate';
import type { ContractResult } from '../../sandbox/types';
import { list, oneOf, parseArgs, str, UsageError } from '../args';
import { CONFIG_FLAGS, loadFromArgs, type Io } from './common';
import { DRAFT_FLAGS } from './diff';
import { readDraftFiles } from './draftFiles';

export function formatContracts(results: readonly ContractResult[]): string {
  let out = '';
  for (const r of results) out += `${r.pass ? 'PASS' : 'FAIL'}  ${r.contract.name}: ${r.detail}\n`;
  const failed = results.filter((r) => !r.pass).length;
  out += `${results.length - failed} passed, ${failed} failed\n`;
  return out;
}

export async function checkCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, ...DRAFT_FLAGS, { name: 'contracts', kind: 'string' }]);
  const output = oneOf(args, 'output', ['json', 'text'] as const, 'text');
  const file = str(args, 'contracts');
  if (!file) throw new UsageError('--contracts FILE is required (docs/sandbox.md: Routing contracts)');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --contracts ${file}: ${(e as Error).message}`);
  }
  const parsed = parseContracts(text);
  if (parsed.errors.length > 0) {
    for (const e of parsed.errors)
      io.stderr.write(`error: ${file}:${e.line ?? 1}:${e.column ?? 1}: ${e.path ? `${e.path}: ` : ''}${e.message}\n`);
    return 2;
  }
  const drafts = list(args, 'draft');
  const files = drafts.length > 0 ? await readDraftFiles(drafts) : undefined;
  const loaded = await loadFromArgs(args, io, { rawInputs: true });
  if (!loaded) return 1;
  const { result } = evaluate({ snapshot: loaded.snapshot, inputs: loaded.inputs }, files?.text ?? '', {
    options: optionsOf(loaded.snapshot),
    contracts: parsed.contracts,
    findings: false,
    maxDiffs: 0,
  });
  for (const e of result.errors)
    io.stderr.write(`${e.level}: ${files?.where(e) || 'draft'}: ${e.object ? `${e.object}: ` : ''}${e.message}\n`);
  const results = result.contracts ?? [];
  if (output === 'json') io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else io.stdout.write(formatContracts(results));
  return results.every((r) => r.pass) ? 0 : 1;
}
