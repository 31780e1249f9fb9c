// GET /api/analyze: the findings of `meshscope analyze` for the runtime's current snapshot.
import { analyze, type Finding, type Level } from '../analyze/index';
import { findingsWithLines } from '../sources/file/lines';
import { memoized } from './snapshotMemo';
import { ok, type ApiContext, type ApiResult } from './types';

export interface AnalyzeResponse {
  version: number;
  findings: Finding[];
  counts: Record<Level, number>;
}

export function analyzeMesh(ctx: ApiContext): ApiResult<AnalyzeResponse> {
  // Lines are read from the files of this snapshot: the same for every request until it changes.
  return ok(memoized(ctx, ctx.readText ? 'analyze+lines' : 'analyze', () => analyzeBody(ctx)));
}

function analyzeBody(ctx: ApiContext): AnalyzeResponse {
  const all = analyze(ctx.snapshot, { options: ctx.options }).findings;
  const findings = ctx.readText ? findingsWithLines(all, ctx.readText) : all;
  const counts: Record<Level, number> = { Error: 0, Warning: 0, Info: 0 };
  for (const f of findings) counts[f.level]++;
  return { version: ctx.snapshot.version, findings, counts };
}
