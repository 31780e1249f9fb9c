// POST /api/simulate `config: "meshscope" | "live"` (issue 21 §4, "trace this request on meshscope's config and
// on Envoy's"): the same request simulated on meshscope's translation of a pod and on the pod's own dump, read
// from a bug-report archive's LiveSource (built in the test from Bookinfo, server/archive/bugReport.testing.ts).
// Routing on the two sides follows Envoy's weighted_clusters (route_entry weights, config_impl.cc
// WeightedClusterEntry): the archive's Envoy holds reviews 50/50 where meshscope translates Bookinfo's 80/20.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archiveInputs, archiveLiveSource, readArchive } from '../archive/index';
import { bugReportEntries, POD_ID, translatedDump, withReviewsWeights, writeBugReport } from '../archive/bugReport.testing';
import { optionsOf } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { simulateRequest, type SimulateResponse } from './simulate';
import { resolveSimulateBody, withLiveInfo } from './simulateLive';
import type { ApiContext } from './types';

const REQUEST = { mode: 'outbound' as const, port: 9080, host: 'reviews:9080', path: '/reviews/1' };
const V1 = 'outbound|9080|v1|reviews.default.svc.cluster.local';
const V2 = 'outbound|9080|v2|reviews.default.svc.cluster.local';

describe('POST /api/simulate config: "meshscope" | "live"', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'simulate-live-'));
  const file = writeBugReport(join(dir, 'br.tgz'), bugReportEntries(withReviewsWeights(translatedDump(), 50, 50)));
  const archive = await readArchive(file);
  const snapshot = buildSnapshot(archiveInputs(archive).inputs, { version: 1 });
  const ctx: ApiContext = { snapshot, options: optionsOf(snapshot) };
  const source = archiveLiveSource(archive, '2026-11-27T19:00:00Z');

  it('an old body passes through unchanged; config "meshscope" answers as without it', async () => {
    const old = { proxyId: POD_ID, request: REQUEST };
    expect(await resolveSimulateBody(old, source)).toEqual({ body: old });
    const plain = simulateRequest(ctx, old);
    const mine = simulateRequest(ctx, { ...old, config: 'meshscope' });
    expect(plain.status).toBe(200);
    expect(mine).toEqual(plain);
    expect((mine.body as SimulateResponse).weightedClusters).toEqual({ [V1]: 80, [V2]: 20 });
  });

  it('config "live" simulates on the pod’s dump: the same hops, the Envoy’s weights, and where the dump came from', async () => {
    const resolved = await resolveSimulateBody({ proxyId: POD_ID, request: REQUEST, config: 'live' }, source);
    expect(resolved.failure).toBeUndefined();
    expect(resolved.live).toEqual({ source: 'bug-report', fetchedAt: '2026-11-27T19:00:00Z', bytes: expect.any(Number) });
    const res = simulateRequest(ctx, resolved.body);
    expect(res.status).toBe(200);
    const answer = withLiveInfo({ status: 200, json: JSON.stringify(res.body) }, resolved.live);
    const live = JSON.parse(answer.json) as SimulateResponse;
    const mine = simulateRequest(ctx, { proxyId: POD_ID, request: REQUEST, config: 'meshscope' }).body as SimulateResponse;
    expect(live.live?.source).toBe('bug-report');
    expect(live.weightedClusters).toEqual({ [V1]: 50, [V2]: 50 });
    for (const k of ['listener', 'filterChain', 'routeConfig', 'virtualHost', 'routeIndex'] as const) expect(live[k]).toEqual(mine[k]);
    expect(live).toMatchObject({ listener: '0.0.0.0_9080', routeConfig: '9080', virtualHost: 'reviews.default.svc.cluster.local:9080' });
  });

  it('failures answer /live’s classified statuses; a bad body is a 400 naming the field; an error answer is left alone', async () => {
    const ghost = await resolveSimulateBody({ proxyId: 'ghost.default', request: REQUEST, config: 'live' }, source);
    expect(ghost.failure).toMatchObject({ status: 404, body: { stage: 'proxy', error: expect.stringContaining('ghost.default') } });
    const off = await resolveSimulateBody({ proxyId: POD_ID, request: REQUEST, config: 'live' }, undefined);
    expect(off.failure).toMatchObject({ status: 404, body: { stage: 'config', error: expect.stringContaining('--live-config') } });
    const bad = await resolveSimulateBody({ proxyId: POD_ID, request: { mode: 'outbound' }, config: 'live' }, source);
    expect(bad.failure).toMatchObject({ status: 400, body: { error: expect.stringContaining('request.port') } });
    const side = simulateRequest(ctx, { proxyId: POD_ID, request: REQUEST, config: 'envoy' });
    expect(side).toMatchObject({ status: 400, body: { error: expect.stringContaining('config') } });
    const refused = { status: 422, json: '{"error":"over budget","stage":"simulate"}' };
    expect(withLiveInfo(refused, { source: 'bug-report', fetchedAt: 'x', bytes: 1 })).toBe(refused);
  });
});
