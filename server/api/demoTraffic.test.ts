import { describe, expect, it } from 'vitest';
import type { TrafficReport } from '../demo/report';
import { demoTraffic, NO_DEMO_TRAFFIC } from './demoTraffic';

describe('GET /api/demo/traffic', () => {
  it('without a data plane: 200, running false, and what to do', () => {
    const r = demoTraffic(undefined, new URLSearchParams());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ running: false, services: [], problems: [NO_DEMO_TRAFFIC], windowSeconds: 10 });
  });
  it('passes the window through, and refuses a window outside 1–60 s with a 400 that says so', () => {
    const asked: number[] = [];
    const source = { report: (w?: number) => (asked.push(w ?? -1), { windowSeconds: w } as TrafficReport) };
    expect(demoTraffic(source, new URLSearchParams({ window: '2' })).status).toBe(200);
    expect(asked).toEqual([2]);
    for (const bad of ['0', '61', 'x', '-1', '1e3']) {
      const r = demoTraffic(source, new URLSearchParams({ window: bad }));
      expect(r.status).toBe(400);
      expect((r.body as { error: string }).error).toContain(`got "${bad}"`);
    }
  });
});
