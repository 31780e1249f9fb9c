// GET /api/analyze: the findings of `meshscope analyze` for the runtime's current snapshot.
import { analyze, type Finding, type Level } from '../analyze/index';
import { ok, type ApiContext, type ApiResult } from './types';

export interface AnalyzeResponse {
  version: number;
  findings: Finding[];
  counts: Record<Level, number>;
}

export function analyzeMesh(ctx: ApiContext): ApiResult<AnalyzeResponse> {
  const { findings } = analyze(ctx.snapshot, { options: ctx.options });
  const counts: Record<Level, number> = { Error: 0, Warning: 0, Info: 0 };
  for (const f of findings) counts[f.level]++;
  return ok({ version: ctx.snapshot.version, findings, counts });
}
