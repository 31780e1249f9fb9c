// Findings of every analyzer on the overlay against live: new (only on the draft), resolved (only live),
// unchanged (both). A finding about an object of the draft is located at its line in the draft text.
import { analyze, type Finding, type Level } from '../analyze/index';
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import type { SandboxFinding, SandboxProblem } from './types';

const LEVEL: Record<Level, SandboxProblem['level']> = { Error: 'error', Warning: 'warning', Info: 'info' };
const keyOf = (f: Finding) => `${f.code}\u0000${f.object}\u0000${f.path ?? ''}\u0000${f.message}`;

/** Locates a path of a draft document: 1-based line/column, or nothing when the document is unknown. */
export type Locate = (doc: number, path: string | undefined) => { line: number; column: number } | undefined;

function toSandbox(f: Finding, state: SandboxFinding['state'], locate: Locate): SandboxFinding {
  const out: SandboxFinding = { state, level: LEVEL[f.level], code: f.code, message: f.message };
  if (f.object) out.object = f.object;
  if (f.path) out.path = f.path;
  if (state !== 'resolved' && f.origin?.source === 'sandbox' && f.origin.doc !== undefined) {
    out.doc = f.origin.doc;
    const at = locate(f.origin.doc, f.path);
    if (at) Object.assign(out, at);
  }
  return out;
}

/**
 * Findings of `draft` marked against `base`. `baseFindings` may be passed in when the caller already has
 * the live findings (they only depend on the live snapshot).
 */
export function compareFindings(
  base: MeshSnapshot,
  draft: MeshSnapshot,
  options: TranslateOptions,
  locate: Locate,
  baseFindings?: readonly Finding[],
  draftOptions: TranslateOptions = options,
): SandboxFinding[] {
  const live = baseFindings ?? analyze(base, { options }).findings;
  const next = analyze(draft, { options: draftOptions }).findings;
  const liveKeys = new Set(live.map(keyOf));
  const nextKeys = new Set(next.map(keyOf));
  const out: SandboxFinding[] = [];
  for (const f of next) out.push(toSandbox(f, liveKeys.has(keyOf(f)) ? 'unchanged' : 'new', locate));
  for (const f of live) if (!nextKeys.has(keyOf(f))) out.push(toSandbox(f, 'resolved', locate));
  const order = { new: 0, resolved: 1, unchanged: 2 } as const;
  return out.sort((a, b) => order[a.state] - order[b.state]);
}
