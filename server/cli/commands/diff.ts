// `meshscope diff --config BASE… --draft FILE… [--proxy ID]… [-o json|text]` (DESIGN.md §3): the sandbox's
// blast radius and semantic diffs of a draft over the base inputs. Deterministic (no times, sorted lists).
// Exit 0 unless the input is unusable (no base, unreadable draft, or a draft of which nothing is usable).
import { optionsOf } from '../../model/mesh';
import { evaluate } from '../../sandbox/evaluate';
import type { EvaluateResult, ProxyDiff, SandboxProblem } from '../../sandbox/types';
import { type FlagSpec, list, oneOf, parseArgs, UsageError } from '../args';
import { formatTable } from '../format';
import { CONFIG_FLAGS, loadFromArgs, type Io } from './common';
import { type DraftFiles, readDraftFiles } from './draftFiles';

export const DRAFT_FLAGS: readonly FlagSpec[] = [
  { name: 'draft', short: 'd', kind: 'string', repeat: true },
  { name: 'output', short: 'o', kind: 'string' },
];

/** The JSON `meshscope diff -o json` prints: the evaluation without raw Envoy JSON, problems with `where`. */
export function diffJson(r: EvaluateResult, files: DraftFiles, wanted: readonly string[] | undefined) {
  const located = (p: SandboxProblem) => {
    const where = files.where(p);
    const { line: _l, column: _c, doc: _d, ...rest } = p;
    return where ? { ...rest, where } : rest;
  };
  return {
    errors: r.errors.map(located),
    edits: r.edits.map(({ line, ...e }) => ({ ...e, ...(line !== undefined ? { where: files.where({ line }) } : {}) })),
    blastRadius: r.blastRadius,
    diffs: r.diffs
      .filter((d) => !wanted || wanted.includes(d.proxy))
      .map((d) => ({ ...d, resources: d.resources.map(({ type, name, change }) => ({ type, name, change })) })),
    findings: r.findings.filter((f) => f.state !== 'unchanged').map(located),
    stats: { proxies: r.stats.proxies, candidates: r.stats.candidates, translated: r.stats.translated },
  };
}

function diffText(d: ProxyDiff): string {
  const rows = d.routes.map((r) => [
    r.change,
    r.routeConfig,
    r.virtualHost,
    r.route,
    r.detail ?? '',
    r.source ? `${r.source.kind} ${r.source.namespace}/${r.source.name}${r.source.rule ? ` ${r.source.rule}` : ''}` : '',
  ]);
  let out = `\n${d.proxy}\n`;
  if (rows.length > 0) out += formatTable(['CHANGE', 'ROUTE CONFIG', 'VIRTUAL HOST', 'ROUTE', 'DETAIL', 'SOURCE'], rows);
  const res = d.resources.map((r) => [r.change, r.type, r.name]);
  out += formatTable(['RESOURCE', 'TYPE', 'NAME'], res);
  return out;
}

export function formatDiff(r: EvaluateResult, files: DraftFiles, wanted: readonly string[] | undefined): string {
  let out = '';
  for (const e of r.errors)
    out += `${e.level}: ${files.where(e) || 'draft'}: ${e.object ? `${e.object}: ` : ''}${e.path ? `${e.path}: ` : ''}${e.message}\n`;
  out += `Draft: ${r.edits.length} edit${r.edits.length === 1 ? '' : 's'}\n`;
  for (const e of r.edits) out += `  ${e.op} ${e.object}${e.line !== undefined ? ` (${files.where({ line: e.line })})` : ''}\n`;
  const changed = r.blastRadius.filter((b) => !b.unverified).length;
  out += `Blast radius: ${changed} of ${r.stats.proxies} proxies change (${r.stats.candidates ?? 0} candidates, ${r.stats.translated} translated)\n`;
  for (const b of r.blastRadius) {
    out += `  ${b.proxy} (${b.type}; ${b.types.join(', ')})\n`;
    for (const s of b.summary) out += `    ${s}\n`;
  }
  for (const d of r.diffs) if (!wanted || wanted.includes(d.proxy)) out += diffText(d);
  const findings = r.findings.filter((f) => f.state !== 'unchanged');
  if (findings.length > 0) {
    out += `\nFindings (${findings.length} new or resolved)\n`;
    out += formatTable(
      ['STATE', 'CODE', 'OBJECT', 'PATH', 'WHERE', 'MESSAGE'],
      findings.map((f) => [f.state, f.code ?? '', f.object ?? '', f.path ?? '', files.where(f), f.message]),
    );
  }
  return out;
}

export async function diffCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, ...DRAFT_FLAGS, { name: 'proxy', short: 'p', kind: 'string', repeat: true }]);
  const output = oneOf(args, 'output', ['json', 'text'] as const, 'text');
  const drafts = list(args, 'draft');
  if (drafts.length === 0) throw new UsageError('--draft FILE is required (the YAML to evaluate over --config)');
  const files = await readDraftFiles(drafts);
  const loaded = await loadFromArgs(args, io, { rawInputs: true });
  if (!loaded) return 1;
  const wanted = list(args, 'proxy');
  for (const id of wanted) if (!loaded.snapshot.proxiesById.has(id)) throw new UsageError(`proxy "${id}" not found in the --config inputs`);
  const { result } = evaluate({ snapshot: loaded.snapshot, inputs: loaded.inputs }, files.text, {
    options: optionsOf(loaded.snapshot),
    maxDiffs: Number.POSITIVE_INFINITY,
    maxTranslate: Number.POSITIVE_INFINITY,
    ...(wanted.length > 0 ? { proxies: wanted } : {}),
  });
  const filter = wanted.length > 0 ? wanted : undefined;
  if (output === 'json') io.stdout.write(`${JSON.stringify(diffJson(result, files, filter), null, 2)}\n`);
  else io.stdout.write(formatDiff(result, files, filter));
  const unusable = result.edits.length === 0 && result.errors.some((e) => e.level === 'error');
  if (unusable) io.stderr.write('error: nothing usable in the --draft files\n');
  return unusable ? 1 : 0;
}
