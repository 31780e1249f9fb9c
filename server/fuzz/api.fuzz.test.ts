// Fuzzing the request handlers whose input a client controls (issue #25 §3): POST /api/simulate (a proxy
// or an uploaded Envoy config_dump, real dumps mutated at random and random JSON), POST /api/sandbox/evaluate
// (random drafts, request checks and contracts) and routing-contract files (serve --contracts).
// Properties: no throw, never a 5xx (a 500 is how the handlers report a bug), a 400 names what is wrong,
// located errors for bad drafts and contract files (a line inside the text).
// Runs: server/testing/fuzz.ts (MESHSCOPE_FUZZ_RUNS, seeds printed on failure).
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { contractsState } from '../api/contracts';
import { evaluateSandbox } from '../api/sandbox';
import { simulateRequest } from '../api/simulate';
import type { ApiContext } from '../api/types';
import { DEFAULT_OPTIONS } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { configDumpFor } from '../pipeline/configDump';
import { loadPaths } from '../sources/file/loadPaths';
import { fuzzParams, fuzzTimeout, inputText, meshObject, specValue } from '../testing/fuzz';
import { REPO_ROOT } from '../testing/paths';

const base = loadPaths([join(REPO_ROOT, 'server/translate/testdata/delegate-sidecar/in.yaml')]);
const snapshot = buildSnapshot(base.inputs, { version: 1, extraErrors: base.errors });
const ctx: ApiContext = { snapshot, inputs: () => base.inputs, options: DEFAULT_OPTIONS };
const proxyIds = snapshot.proxies.map((p) => p.id);
const realDump = JSON.parse(JSON.stringify(configDumpFor(snapshot, proxyIds[0] ?? '')?.dump ?? {})) as unknown;

const text = fc.oneof(
  fc.constantFrom('', '/', '/v1/users/id/7', '/v1/users/x', '/other', 'api:8080', 'api', 'users.team', '*', 'a(?=b)'),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `/${'a'.repeat(n)}`),
);
/** Requests the schema accepts (so the walk itself is fuzzed, not only the validation). */
const validRequest = fc.record(
  {
    mode: fc.constantFrom('outbound', 'inbound', 'gateway'),
    port: fc.constantFrom(8080, 80, 9080, 15006),
    host: text,
    path: fc.oneof(
      fc.constantFrom('/', '/v1/users/id/7', '/v1/users/x', '/other'),
      fc.integer({ min: 1, max: 20_000 }).map((n) => `/${'a'.repeat(n)}`),
    ),
    headers: fc.dictionary(fc.constantFrom('x-tenant', 'end-user', 'x-forwarded-proto'), fc.constantFrom('blue', 'jason', 'https', ''), {
      maxKeys: 2,
    }),
  },
  { requiredKeys: ['mode', 'port'] },
);
const simRequest = fc.oneof(
  { weight: 3, arbitrary: validRequest },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        mode: fc.oneof(fc.constantFrom('outbound', 'inbound', 'gateway'), fc.string({ maxLength: 8 })),
        port: fc.oneof(fc.constantFrom(8080, 80, 9080, 15001, 15006, 0), fc.integer({ min: -5, max: 70_000 }), fc.double()),
        host: text,
        path: text,
        method: fc.oneof(fc.constantFrom('GET', 'POST', 'CONNECT', ''), fc.string({ maxLength: 40 })),
        headers: fc.dictionary(
          fc.oneof(fc.constantFrom('x-tenant', ':authority', 'end-user', 'x-forwarded-proto', ''), fc.string({ maxLength: 6 })),
          text,
          { maxKeys: 4 },
        ),
        protocol: fc.constantFrom('http', 'http2', 'tcp', 'udp'),
        tls: fc.constantFrom('plaintext', 'tls', 'mtls', 'x'),
        address: fc.constantFrom('10.0.0.1', '::1', 'nope', ''),
        sni: text,
        alpn: fc.array(fc.constantFrom('h2', 'http/1.1', 'istio', ''), { maxLength: 3 }),
        listener: fc.constantFrom('0.0.0.0_8080', 'virtualOutbound', ''),
        sourceIp: fc.constantFrom('10.1.2.3', 'x'),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: specValue },
);

/** A value with random subtrees replaced or removed (the structure of a real dump, broken in places). */
function mutateJson(v: unknown, picks: number[], replacements: unknown[]): unknown {
  const paths: (string | number)[][] = [];
  const walk = (x: unknown, p: (string | number)[]) => {
    if (paths.length > 4000) return;
    paths.push(p);
    if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...p, i]));
    else if (x && typeof x === 'object') for (const [k, y] of Object.entries(x)) walk(y, [...p, k]);
  };
  walk(v, []);
  let out = structuredClone(v);
  picks.forEach((pick, i) => {
    const p = paths[pick % paths.length] ?? [];
    if (p.length === 0) {
      out = replacements[i];
      return;
    }
    let parent = out as Record<string | number, unknown>;
    for (const k of p.slice(0, -1)) {
      if (!parent || typeof parent !== 'object') return;
      parent = parent[k] as Record<string | number, unknown>;
    }
    if (parent && typeof parent === 'object') {
      const last = p[p.length - 1] as string | number;
      if (replacements[i] === undefined && !Array.isArray(parent)) delete parent[last];
      else parent[last] = replacements[i];
    }
  });
  return out;
}

const dump = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.array(fc.option(specValue, { nil: undefined }), { minLength: 4, maxLength: 4 }),
      )
      .map(([p, r]) => mutateJson(realDump, p, r)),
  },
  { weight: 1, arbitrary: specValue },
);

const noServerError = (status: number) => {
  expect(status).toBeGreaterThanOrEqual(200);
  expect(status).toBeLessThan(500);
};

describe('fuzz: request handlers', () => {
  it(
    'POST /api/simulate with a proxy: never a 5xx; a 400 says why',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.constantFrom(...proxyIds), fc.string({ maxLength: 12 })), simRequest, (proxyId, request) => {
          const res = simulateRequest(ctx, { proxyId, request });
          noServerError(res.status);
          if (res.status === 400) expect((res.body as { error: string }).error.length).toBeGreaterThan(0);
        }),
        fuzzParams(60),
      );
    },
    fuzzTimeout(60, 300),
  );

  it(
    'POST /api/simulate with an uploaded config_dump (a real one mutated, or random JSON): never a 5xx',
    () => {
      fc.assert(
        fc.property(dump, simRequest, (d, request) => {
          noServerError(simulateRequest(ctx, { dump: d, request }).status);
        }),
        fuzzParams(60),
      );
    },
    fuzzTimeout(60, 300),
  );

  it(
    'POST /api/sandbox/evaluate: never a 5xx; draft errors carry a line inside the draft',
    () => {
      const draft = fc.oneof(
        fc.array(meshObject, { minLength: 1, maxLength: 3 }).map((o) => o.map((x) => stringify(x)).join('---\n')),
        inputText.filter((t) => t.length < 100_000),
      );
      const check = fc.record({
        name: fc.string({ maxLength: 8 }),
        proxy: fc.oneof(fc.constantFrom(...proxyIds, 'web'), fc.string({ maxLength: 8 })),
        request: simRequest,
      });
      const contract = fc.record({
        name: fc.string({ minLength: 1, maxLength: 8 }),
        proxy: fc.constantFrom(...proxyIds, 'web'),
        request: simRequest,
        expect: fc.oneof(
          fc.record({ host: fc.constantFrom('api', 'users') }),
          fc.record({ cluster: fc.string({ minLength: 1 }), minPercent: fc.integer({ min: 0, max: 100 }) }),
          specValue,
        ),
      });
      fc.assert(
        fc.property(draft, fc.array(check, { maxLength: 3 }), fc.array(contract, { maxLength: 2 }), (d, requests, contracts) => {
          const res = evaluateSandbox(ctx, { draft: d, requests, contracts });
          noServerError(res.status);
          if (res.status !== 200) return;
          const lines = d.split('\n').length;
          for (const e of (res.body as { errors: { message: string; line?: number }[] }).errors) {
            expect(e.message.length).toBeGreaterThan(0);
            if (e.line !== undefined) expect(e.line).toBeGreaterThanOrEqual(1), expect(e.line).toBeLessThanOrEqual(lines + 1);
          }
        }),
        fuzzParams(20),
      );
    },
    fuzzTimeout(20, 3_000),
  );

  it(
    'routing contracts files: no throw; YAML errors located at a line of the file',
    () => {
      const contractFile = fc.oneof(
        fc
          .array(fc.record({ name: text, proxy: fc.constantFrom(...proxyIds, 'web'), request: simRequest, expect: specValue }), {
            maxLength: 3,
          })
          .map((contracts) => stringify({ contracts })),
        inputText.filter((t) => t.length < 50_000),
      );
      fc.assert(
        fc.property(contractFile, (t) => {
          const s = contractsState('/fuzz/contracts.yaml', t, snapshot, DEFAULT_OPTIONS);
          const lines = t.split('\n').length;
          for (const e of s.errors)
            if (e.line !== undefined) expect(e.line).toBeGreaterThanOrEqual(1), expect(e.line).toBeLessThanOrEqual(lines + 1);
          expect(s.passed + s.failed).toBe(s.results.length);
        }),
        fuzzParams(30),
      );
    },
    fuzzTimeout(30, 1_000),
  );
});
