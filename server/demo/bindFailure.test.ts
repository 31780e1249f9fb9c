// A pod address the data plane cannot bind (here: already taken) is a visible status — the `demo-traffic`
// source turns `failing` with the address and the reason, GET /api/demo/traffic lists it under `problems`
// — and the rest of the demo keeps running. Nothing crashes.
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTraffic } from '../api/demoTraffic';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { waitFor } from '../xds/testing/echo';
import type { TrafficReport } from './report';
import { copyDemoMesh } from './testing/demoCopy';

const BASE = 217;
let dir: string;
let rt: MeshscopeRuntime;
let squatter: Server;

beforeAll(async () => {
  dir = copyDemoMesh(BASE);
  squatter = createServer();
  await new Promise<void>((r) => squatter.listen(7071, `127.0.${BASE}.20`, () => r())); // cart's second port
  rt = createRuntimeForTest(
    { config: [dir], xdsPort: 0, demoTraffic: true },
    { log: () => undefined, demo: { rate: 10, testerPercent: 0 } },
  );
  await rt.ready;
}, 30_000);

afterAll(async () => {
  await rt?.stop();
  squatter?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('demo data plane: a bind failure is reported, not thrown', () => {
  it('marks the pod failing, says why in the source status and the report, and still serves the others', async () => {
    const report = () => demoTraffic(rt.demoTraffic(), new URLSearchParams()).body as TrafficReport;
    await waitFor(() => (report().services.find((s) => s.host.startsWith('products.'))?.requests ?? 0) > 0, 'products traffic');
    const cart = report().backends.find((b) => b.id.startsWith('cart-'))!;
    expect(cart.state).toBe('failing');
    expect(cart.error).toContain(`127.0.${BASE}.20:7071`);
    expect(report().problems.some((p) => p.includes(`127.0.${BASE}.20:7071`))).toBe(true);
    const status = rt.statuses().find((s) => s.id === 'demo-traffic')!;
    expect(status.state).toBe('failing');
    expect(status.lastError).toContain(`127.0.${BASE}.20:7071`);
    expect(report().backends.filter((b) => b.state === 'serving')).toHaveLength(7);
  });
});
