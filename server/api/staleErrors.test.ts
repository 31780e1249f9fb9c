// /api/errors marks objects served from their last good version (issue 14.1): the store keeps the last
// valid VirtualService when its new version is invalid, and the handler's JSON carries the existing fields
// (severity, message, file, doc, object, path) plus `staleSince` — added, nothing renamed.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { Store } from '../sources/store';
import { inputErrors } from './debug';

const vs = (weight: unknown) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name: 'reviews', namespace: 'default' },
  spec: { hosts: ['reviews'], http: [{ route: [{ destination: { host: 'reviews' }, weight }] }] },
});

describe('/api/errors stale marks', () => {
  it('an invalid new version: located error with "stale: last good from <time>", the last good VS keeps serving', () => {
    const t0 = new Date('2026-11-23T23:00:00.000Z');
    const store = new Store({ now: () => t0 });
    store.replace('file', [{ object: vs(100), origin: { source: 'file', file: 'vs.yaml', doc: 0 } }]);
    store.flush();
    store.replace('file', [{ object: vs('eighty'), origin: { source: 'file', file: 'vs.yaml', doc: 0 } }]);
    store.flush();
    const snapshot = store.snapshot();
    expect(snapshot.virtualServices[0]?.spec.http?.[0]?.route?.[0]?.weight).toBe(100);
    const body = inputErrors({ snapshot, options: DEFAULT_OPTIONS }).body as { errors: readonly unknown[] };
    expect(body.errors).toEqual([
      {
        severity: 'error',
        message: expect.stringMatching(
          /^expected number, got string "eighty" \(stale: last good from 2026-11-23T23:00:00\.000Z is served\)$/,
        ),
        object: 'VirtualService default/reviews',
        path: 'spec.http[0].route[0].weight',
        file: 'vs.yaml',
        doc: 0,
        staleSince: '2026-11-23T23:00:00.000Z',
      },
    ]);
    store.close();
  });
});
