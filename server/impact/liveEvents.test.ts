// The runtime's live events on a mesh of 200+ proxies (real file source, watched directory): a change is
// told to SSE subscribers from the changed objects alone (affected.ts) — nothing is translated for it —
// and an event reaching every proxy says so compactly.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSyntheticMesh } from '../../bench/uiServe';
import type { MeshEvent } from '../api/events';
import { listProxies } from '../api/proxies';
import { createRuntimeForTest, type MeshscopeRuntime } from '../runtime';
import { LIST_ALL_LIMIT } from './changes';

const running: MeshscopeRuntime[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const rt of running.splice(0)) await rt.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The next snapshot-change event (status-only events carry the current version and no proxies). */
const nextEvent = (rt: MeshscopeRuntime): Promise<MeshEvent> => {
  const after = rt.snapshot().version;
  return new Promise((resolve) => {
    const off = rt.subscribe((e) => {
      if (e.version <= after) return;
      off();
      resolve(e);
    });
  });
};

const service = (name: string, ns: string, exportTo?: string) =>
  [
    'apiVersion: v1',
    'kind: Service',
    `metadata: {name: ${name}, namespace: ${ns}${exportTo ? `, annotations: {networking.istio.io/exportTo: "${exportTo}"}` : ''}}`,
    'spec:',
    `  selector: {app: ${name}}`,
    '  ports: [{name: http, port: 8080, targetPort: 8080}]',
    '',
  ].join('\n');

describe('live events without translating every proxy', () => {
  it('public change → "all" said compactly; a namespace-private change → only that namespace\'s proxies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-live-'));
    dirs.push(dir);
    writeSyntheticMesh(110, { dir }); // 220 proxies over 2 namespaces
    const rt = createRuntimeForTest({ config: [dir] });
    running.push(rt);
    await rt.ready;
    const snap = rt.snapshot();
    expect(snap.proxies.length).toBeGreaterThan(LIST_ALL_LIMIT);

    let got = nextEvent(rt);
    writeFileSync(join(dir, 'zz-public.yaml'), service('added', 'ns-0'));
    let e = await got;
    // A Service without exportTo is visible to every namespace (istiod's default exportTo "*").
    expect(e).toMatchObject({ all: true, proxies: [], endpointsOnly: false, types: ['listeners', 'routes', 'clusters', 'endpoints'] });
    expect(e.version).toBe(rt.snapshot().version);

    got = nextEvent(rt);
    writeFileSync(join(dir, 'zz-private.yaml'), service('private', 'ns-1', '.'));
    e = await got;
    const ns1 = rt
      .snapshot()
      .proxies.filter((p) => p.namespace === 'ns-1')
      .map((p) => p.id)
      .sort();
    expect(e.all).toBeUndefined();
    expect(e.proxies).toEqual(ns1);

    // Neither the events nor the list translated anything into the runtime's resource cache.
    const list = listProxies(rt.context());
    expect(list.body.countsComplete).toBe(false);
    expect(rt.cache.size).toBe(0);
  });
});
