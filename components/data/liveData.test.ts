// The proxies table's drift states from a /drift body (issue 21 §4: in sync / N differences / rejected /
// not fetched). `unmodelled` differences (telemetry meshscope does not generate) do not count, as they do
// not make `inSync` false (issue 21 §2); a NACK shows as "rejected" whatever else differs.
import { describe, expect, it } from 'vitest';
import type { DriftResponse } from '@/server/api/contract';
import { driftState, LiveFetchError } from './liveData';

const zero = { same: 1, changed: 0, onlyInEnvoy: 0, onlyInMeshscope: 0 };
const body = (over: Partial<DriftResponse>): DriftResponse => ({
  proxy: 'a.ns',
  inSync: true,
  counts: { listeners: zero, routes: zero, clusters: zero, endpoints: zero },
  resources: [],
  routes: [],
  nacked: [],
  ignored: { static: 0, warming: 0, draining: 0 },
  ...over,
});

describe('driftState', () => {
  it('in sync, even with unmodelled differences listed', () => {
    const b = body({ resources: [{ type: 'listeners', name: 'virtualInbound', change: 'changed', class: 'unmodelled' }] });
    expect(driftState(b, null, false)).toEqual({ kind: 'in-sync' });
  });
  it('N differences counts only the modelled ones', () => {
    const b = body({
      inSync: false,
      resources: [
        { type: 'clusters', name: 'a', change: 'onlyInEnvoy' },
        { type: 'clusters', name: 'b', change: 'changed', paths: ['connect_timeout'] },
        { type: 'listeners', name: 'virtualInbound', change: 'changed', class: 'unmodelled' },
      ],
    });
    expect(driftState(b, null, false)).toEqual({ kind: 'differs', count: 2 });
  });
  it('rejected when the Envoy NACKed something', () => {
    const b = body({ nacked: [{ type: 'listeners', name: 'x', details: 'bad' }] });
    expect(driftState(b, null, false)).toEqual({ kind: 'rejected', count: 1 });
  });
  it('not fetched: the classified failure as the reason; pending while fetching', () => {
    expect(
      driftState(undefined, new LiveFetchError(403, 'portforward', 'forbidden: grant get, create on pods/portforward'), false),
    ).toEqual({
      kind: 'not-fetched',
      reason: 'forbidden: grant get, create on pods/portforward',
    });
    expect(driftState(undefined, null, true)).toEqual({ kind: 'pending' });
    expect(driftState(undefined, null, false).kind).toBe('not-fetched');
  });
});
