// POST /api/sandbox/evaluate handler: bad drafts are 200 with located errors, never a 500; a body that is
// not the documented shape is a 400; one over the documented limit a 413 (read as a stream, never whole).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { bookinfoBase, readBookinfo, reviewsSplit } from '../sandbox/testing';
import type { EvaluateResult } from '../sandbox/types';
import { evaluateSandbox, readLimitedJson, SANDBOX_BODY_LIMIT } from './sandbox';
import type { ApiContext } from './types';

const base = bookinfoBase();
const ctx: ApiContext = { snapshot: base.snapshot, inputs: () => base.inputs, options: DEFAULT_OPTIONS };
const body = (b: unknown) => evaluateSandbox(ctx, b);

describe('evaluateSandbox', () => {
  it('a draft → blast radius, diffs, request checks and contracts', () => {
    const res = body({
      draft: readBookinfo('networking/virtual-service-reviews-jason-v2-v3.yaml'),
      proxies: ['productpage-v1-f7ee9888b3-t6hg7.default'],
      requests: [{ name: 'jason', proxy: 'productpage-v1', request: { port: 9080, host: 'reviews', headers: { 'end-user': 'jason' } } }],
      contracts: [
        {
          name: 'jason → v2',
          proxy: 'productpage-v1',
          request: { port: 9080, host: 'reviews', headers: { 'end-user': 'jason' } },
          expect: { host: 'reviews', subset: 'v2' },
        },
      ],
    });
    expect(res.status).toBe(200);
    const r = res.body as EvaluateResult;
    expect(r.blastRadius).toHaveLength(6);
    expect(r.diffs.map((d) => d.proxy)).toEqual(['productpage-v1-f7ee9888b3-t6hg7.default']);
    expect(r.checks[0]?.draft.distribution).toEqual({ 'outbound|9080|v2|reviews.default.svc.cluster.local': 100 });
    expect(r.contracts?.[0]?.pass).toBe(true);
  });

  it.each([
    ['bad YAML', 'kind: [oops\n', 'YAML'],
    ['an unknown kind', 'apiVersion: x.io/v1\nkind: Widget\nmetadata: {name: w}\n', 'unknown kind'],
    ['an invalid field', reviewsSplit({ v1: 50, v2: 50 }).replace('weight: 50', 'weight: -5'), ''],
    ['not an object', '- 1\n- 2\n', 'Kubernetes object'],
  ])('%s → 200 with located errors', (_, draft, text) => {
    const res = body({ draft });
    expect(res.status).toBe(200);
    const r = res.body as EvaluateResult;
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0]?.line).toBeGreaterThan(0);
    expect(r.errors[0]?.message).toContain(text);
  });

  it.each([[undefined], [null], ['text'], [{}], [{ draft: 3 }], [{ draft: '', extra: 1 }], [{ draft: '', requests: [{ proxy: 'p' }] }]])(
    'a body that is not {draft, …} is a 400: %j',
    (b) => {
      const res = body(b);
      expect(res.status).toBe(400);
      expect((res.body as { error: string }).error).toMatch(/invalid sandbox request/);
    },
  );
});

describe('readLimitedJson', () => {
  const post = (text: string, headers: Record<string, string> = {}) =>
    new Request('http://127.0.0.1/api/sandbox/evaluate', { method: 'POST', body: text, headers });

  it('reads JSON under the limit', async () => {
    expect(await readLimitedJson(post('{"draft":""}'))).toEqual({ body: { draft: '' } });
  });
  it(`a body over ${SANDBOX_BODY_LIMIT} bytes is a 413, by what arrives even without Content-Length`, async () => {
    const big = JSON.stringify({ draft: 'x'.repeat(SANDBOX_BODY_LIMIT + 10) });
    expect((await readLimitedJson(post(big))).status).toBe(413);
    expect((await readLimitedJson(post('{}', { 'content-length': String(SANDBOX_BODY_LIMIT + 1) }))).status).toBe(413);
  });
  it('a body that is not JSON is a 400', async () => {
    expect((await readLimitedJson(post('{nope'))).status).toBe(400);
  });
});
