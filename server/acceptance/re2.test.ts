// issue #25 acceptance §1, as a user runs it: RE2 semantics everywhere a regex is evaluated or validated.
//  - The `/(a+)+b` route against a 10,000-character path answers at once with RE2's answer (no match →
//    the next route), through `meshscope simulate` and POST /api/simulate. Envoy's safe_regex is RE2
//    (source/common/common/regex.cc), a full match; RE2 runs in time linear in the input.
//  - A lookahead is rejected at load with a located error, as istiod rejects it (pkg/config/validation/
//    validation.go validateStringMatchRegexp → validateStringRegexp → Go regexp.Compile: "invalid or
//    unsupported Perl syntax"); `meshscope analyze` reports it as IST0106, and the sandbox marks the line.
// Bounded time is shown without a clock: the 10,000-character request runs next to a 27-character one
// (which took 4.9 s in JavaScript's backtracking RegExp) and a 100,000-character one in the same test
// process, under vitest's default 5 s test timeout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputErrors } from '../api/debug';
import { evaluateSandbox } from '../api/sandbox';
import { simulateRequest, type SimulateResponse } from '../api/simulate';
import type { ApiContext } from '../api/types';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { bookinfoBase } from '../sandbox/testing';
import type { EvaluateResult } from '../sandbox/types';
import { inputFileReader } from '../sources/file/lines';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { cliJson, runCli } from './cliRun';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const REVIEWS = 'reviews.default.svc.cluster.local';
const routes = join(REPO_ROOT, 'server/acceptance/testdata/re2-routes.yaml');
const lookahead = join(REPO_ROOT, 'server/acceptance/testdata/re2-lookahead.yaml');
const files = [bookinfo('platform', 'bookinfo.yaml'), bookinfo('networking', 'destination-rule-all.yaml'), routes];
const A10K = `/${'a'.repeat(10_000)}`;

describe('the /(a+)+b route: RE2 answers, in linear time', () => {
  const { inputs, errors } = loadPaths(files);
  const snapshot = buildSnapshot(inputs, { version: 1, extraErrors: errors });
  const ctx: ApiContext = { snapshot, options: DEFAULT_OPTIONS };
  const productpage = snapshot.proxies.find((p) => p.labels['app'] === 'productpage')!.id;
  const sim = (path: string) =>
    simulateRequest(ctx, { proxyId: productpage, request: { mode: 'outbound', port: 9080, host: 'reviews:9080', path } });

  it('POST /api/simulate: 10,000 a’s do not match (→ v3, the regex route rejected); …ab matches (→ v2)', () => {
    const miss = sim(A10K);
    expect(miss.status).toBe(200);
    const body = miss.body as SimulateResponse;
    expect(body.cluster).toBe(`outbound|9080|v3|${REVIEWS}`);
    expect(body.rejected).toContainEqual(
      expect.objectContaining({ hop: 'route', index: 0, reason: expect.stringContaining('does not match regex /(a+)+b') }),
    );
    expect((sim(`${A10K}b`).body as SimulateResponse).cluster).toBe(`outbound|9080|v2|${REVIEWS}`);
    // The 27-character path of the issue and a 100,000-character one: same answer, same test budget.
    expect((sim(`/${'a'.repeat(27)}`).body as SimulateResponse).cluster).toBe(`outbound|9080|v3|${REVIEWS}`);
    expect((sim(`/${'a'.repeat(100_000)}`).body as SimulateResponse).cluster).toBe(`outbound|9080|v3|${REVIEWS}`);
  });

  it('meshscope simulate (the real CLI): the same answers', () => {
    const proxies = cliJson<Json[]>(['proxies', ...files.flatMap((f) => ['--config', f]), '-o', 'json']);
    const pp = proxies.find((p) => p.labels.app === 'productpage').id;
    const base = ['simulate', ...files.flatMap((f) => ['--config', f]), '--proxy', pp, '--port', '9080', '--host', 'reviews:9080'];
    expect(cliJson<Json>([...base, '--path', A10K]).cluster).toBe(`outbound|9080|v3|${REVIEWS}`);
    expect(cliJson<Json>([...base, '--path', `${A10K}b`]).cluster).toBe(`outbound|9080|v2|${REVIEWS}`);
  });
});

describe('a lookahead is rejected at load, located, as istiod rejects it', () => {
  const GO_ERR = 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`';

  it('GET /api/errors: file, object, field path and line (9: the `regex:` line)', () => {
    const r = loadPaths([lookahead]);
    const snapshot = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
    const ctx = { snapshot, options: DEFAULT_OPTIONS, readText: inputFileReader(() => r.inputs) };
    const errs = inputErrors(ctx).body.errors.filter((e) => e.path === 'spec.http[0].match[0].uri.regex');
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ line: 9, message: expect.stringContaining(GO_ERR) });
    expect(errs[0]?.message).toContain('Istio uses RE2 style regex-based match');
    expect(JSON.stringify(errs[0])).toContain('re2-lookahead.yaml');
  });

  it('meshscope analyze: IST0106 on the field, exit non-zero', () => {
    const r = runCli(['analyze', '--config', lookahead, '-o', 'json']);
    expect(r.status).not.toBe(0);
    const findings = JSON.parse(r.stdout) as Json[];
    expect(findings).toContainEqual(expect.objectContaining({ code: 'IST0106', path: 'spec.http[0].match[0].uri.regex' }));
    expect(findings.find((f) => f.code === 'IST0106').message).toContain(GO_ERR);
  });

  it('the sandbox: the draft’s error carries the line for the editor’s lint marker', () => {
    const base = bookinfoBase();
    const draft = readFileSync(lookahead, 'utf8');
    const res = evaluateSandbox({ snapshot: base.snapshot, inputs: () => base.inputs, options: DEFAULT_OPTIONS }, { draft });
    expect(res.status).toBe(200);
    const e = (res.body as EvaluateResult).errors.find((x) => x.message.includes(GO_ERR));
    expect(e?.line).toBe(9);
  });
});
