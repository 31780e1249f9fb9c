// `serve --contracts FILE`: contracts run on every live snapshot (the runtime, on Bookinfo as shipped);
// GET /api/contracts answers them (the overview line: components/overview/contracts.test.tsx).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { contractsResponse } from './contracts';

let dir: string;
let rt: MeshscopeRuntime;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meshscope-contracts-'));
  for (const f of ['platform/bookinfo.yaml', 'networking/destination-rule-all.yaml', 'networking/virtual-service-all-v1.yaml'])
    copyFileSync(bookinfo(...f.split('/')), join(dir, f.replace('/', '-')));
  rt = createRuntimeForTest(
    { config: [dir], contracts: join(REPO_ROOT, 'server', 'cli', 'testdata', 'contracts-jason.yaml') },
    { log: () => undefined },
  );
  await rt.ready;
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('live routing contracts', () => {
  it('all-v1 fails "jason → reviews v2" (Istio sends jason to v1 there), passes the other', async () => {
    const state = contractsResponse(await rt.contracts()).body;
    expect(state).toMatchObject({ passed: 1, failed: 1, errors: [] });
    expect(state.results.find((r) => !r.pass)?.contract.name).toBe('jason → reviews v2');
  });

  it('re-runs on the next snapshot: with the jason-v2-v3 VirtualService in the watched dir both pass', async () => {
    copyFileSync(bookinfo('networking', 'virtual-service-reviews-jason-v2-v3.yaml'), join(dir, 'networking-virtual-service-all-v1.yaml'));
    // Contracts run in the CPU pool: poll the state until the new snapshot's run passes.
    let last = await rt.contracts();
    const until = Date.now() + 30_000;
    while (last?.failed !== 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      last = await rt.contracts();
    }
    expect(await rt.contracts()).toMatchObject({ passed: 2, failed: 0 });
  });

  it('without a contracts file the endpoint says so', () => {
    expect(contractsResponse(undefined).body).toEqual({ file: null, results: [], errors: [], passed: 0, failed: 0 });
  });
});
