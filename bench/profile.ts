// CPU profiles for bench figures that miss their goal: node:inspector's Profiler around a piece of work (in
// this process, or in the bench server child on request), summarised as the top functions by self time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { basename, dirname } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Top functions by self time: `name file:line`, ms and share of the sampled time. */
  top: Array<{ fn: string; selfMs: number; pct: number }>;
}

/** Self time per function (samples × their time deltas), largest first. */
export function summarise(p: CpuProfile, topN = 8): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    const n = byId.get(samples[i]!);
    const us = deltas[i] ?? 0;
    if (!n) continue;
    const cf = n.callFrame;
    // The in-process inspector session's own `dispatch` (native, no url) is the profiler's overhead.
    if (!cf.url && ['dispatch', '(idle)', '(program)'].includes(cf.functionName)) continue;
    const key = `${cf.functionName || '(anonymous)'} ${cf.url ? basename(cf.url) : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + us);
    total += us;
  }
  const top = [...self.entries()]
    .filter(([k]) => k !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, topN)
    .map(([fn, us]) => ({ fn, selfMs: Math.round(us / 100) / 10, pct: total > 0 ? Math.round((1000 * us) / total) / 10 : 0 }));
  return { totalMs: Math.round(total / 1000), top };
}

/** Runs `work` under the CPU profiler of this process; returns its result and the profile summary. */
export async function profiled<T>(work: () => Promise<T> | T): Promise<{ result: T; summary: ProfileSummary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    return { result, summary: summarise(profile) };
  } finally {
    session.disconnect();
  }
}

/**
 * A started profile of this process, stopped later (the bench server child: start/stop on command).
 * `saveTo`: also write the raw profile there (a .cpuprofile for Chrome DevTools / speedscope).
 */
export async function startProfile(saveTo?: string): Promise<() => Promise<ProfileSummary>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    session.disconnect();
    if (saveTo) {
      // A profile directory that does not exist yet is made (a missing one used to throw in the bench server child).
      mkdirSync(dirname(saveTo), { recursive: true });
      writeFileSync(saveTo, JSON.stringify(profile));
    }
    return summarise(profile);
  };
}

export const formatSummary = (s: ProfileSummary): string =>
  `${s.totalMs} ms sampled; top self time: ${s.top.map((t) => `${t.fn} ${t.selfMs} ms (${t.pct}%)`).join('; ')}`;
