// A first load on the second core is invisible (issue 24 goal 6): over random multi-document and `kind: List`
// files, good and bad documents mixed (YAML syntax errors, a document that is not a mapping, an object
// without a name, a tag or block scalar only the `yaml` parser reads, a List item that is a scalar), split into
// many small jobs that a real worker thread (the bundled dist/cli/parseWorker.mjs) and this thread share, the
// pooled load gives exactly the in-thread load: for every text it loads, the same LoadResult as parseText
// (the CLI's in-thread parse) and parseTextAsync (the server's): objects, origins with file and document
// index, document count; a text with any error it leaves to the in-thread parse (so every located error is
// the in-thread one: file, document, line); and the ParsedOne it computed in the worker for each object,
// re-stamped for the object's position, equals parseOne's — so a snapshot built with them (PreParsedCache)
// equals one built without, errors (object, field path) included.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PreParsedCache } from '../../cli/pooledParse';
import { parseOne, restamp } from '../../model/parse/objects';
import { buildSnapshot } from '../../model/snapshot';
import { DEFAULT_FILE_LIMITS, parseText, parseTextAsync } from './parseFile';
import { createParsePool, type ParsePool } from './parsePool';
import { pooledLoads } from './pooledLoad';

const ROOT = join(__dirname, '..', '..', '..');
const WORKER = join(ROOT, 'dist', 'cli', 'parseWorker.mjs');

const object = fc.record({
  kind: fc.constantFrom('Pod', 'Service', 'VirtualService', 'DestinationRule'),
  name: fc.constantFrom('a', 'b', 'c', 'é-d', 'e'),
  ns: fc.constantFrom('x', 'y', undefined),
  port: fc.oneof(fc.integer({ min: 1, max: 70000 }), fc.constantFrom('http', '08', null)),
  host: fc.constantFrom('svc-a', 'svc-b.x.svc.cluster.local', '--- m', '# c', ''),
});
type Obj = { kind: string; name: string; ns: string | undefined; port: unknown; host: string };
const raw = (o: Obj): Record<string, unknown> => {
  const metadata = { name: o.name, ...(o.ns ? { namespace: o.ns } : {}) };
  if (o.kind === 'VirtualService')
    return {
      apiVersion: 'networking.istio.io/v1',
      kind: o.kind,
      metadata,
      spec: { hosts: [o.host], http: [{ route: [{ destination: { host: o.host, port: { number: o.port } } }] }] },
    };
  if (o.kind === 'DestinationRule')
    return {
      apiVersion: 'networking.istio.io/v1',
      kind: o.kind,
      metadata,
      spec: { host: o.host, subsets: [{ name: 'v1', labels: { v: 'v1' } }] },
    };
  if (o.kind === 'Service')
    return { apiVersion: 'v1', kind: o.kind, metadata, spec: { ports: [{ name: 'http', port: o.port }], selector: { app: o.name } } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, labels: { app: o.name } },
    spec: { containers: [{ name: 'app', ports: [{ containerPort: o.port }] }] },
    status: { podIP: '10.0.0.1' },
  };
};

/** Documents that do not read cleanly, or only with the `yaml` parser. */
const BAD = [
  'apiVersion: v1\nkind: Service\nmetadata: {name: bad\n', // unclosed flow mapping
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  name: b\n', // duplicate key
  '- just\n- a list\n', // not an object
  'plain scalar\n',
  'apiVersion: v1\nkind: Service\nmetadata:\n  namespace: x\n', // no name
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tagged}\ndata:\n  n: !!str 5\n  t: |\n    line\n', // yaml-only
  'apiVersion: v1\nkind: List\nitems:\n- 5\n- apiVersion: v1\n  kind: Service\n  metadata: {name: li}\n', // scalar item
  'key: [unclosed\n',
];

const doc = fc.oneof(
  { weight: 6, arbitrary: object.map((o) => ({ t: 'obj' as const, o })) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('list' as const),
      items: fc.array(object, { minLength: 1, maxLength: 6 }),
      indentSeq: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'empty' as const }) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD).map((text) => ({ t: 'bad' as const, text })) },
);
type Doc = { t: 'obj'; o: Obj } | { t: 'list'; items: Obj[]; indentSeq: boolean } | { t: 'empty' } | { t: 'bad'; text: string };
const docText = (d: Doc): string => {
  if (d.t === 'obj') return stringify(raw(d.o));
  if (d.t === 'list')
    return stringify(
      { apiVersion: 'v1', kind: 'List', items: d.items.map(raw), metadata: { resourceVersion: '' } },
      { indentSeq: d.indentSeq },
    );
  if (d.t === 'bad') return d.text;
  return '';
};
const file = fc.record({
  docs: fc.array(doc, { minLength: 1, maxLength: 14 }),
  preamble: fc.constantFrom('', '# exported\n', '---\n'),
  jobChars: fc.integer({ min: 1, max: 600 }),
});
const render = (f: { docs: Doc[]; preamble: string }): string =>
  f.preamble === '---\n' ? f.docs.map((d) => `---\n${docText(d)}`).join('') : f.preamble + f.docs.map(docText).join('---\n');

let pool: ParsePool;
const logged: string[] = [];

beforeAll(() => {
  // The worker is the bundled one, as the CLI runs it (built when a source is newer).
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), '--if-stale'], { cwd: ROOT });
  pool = createParsePool(WORKER, { workers: 1, minBytes: 0 });
}, 120_000);
afterAll(async () => {
  await pool.close();
});

describe('a first load on a parse worker equals the in-thread load', () => {
  it('same objects, origins, documents and errors; same ParsedOnes; same snapshot', async () => {
    let pooledTexts = 0;
    let workerJobs = 0;
    await fc.assert(
      fc.asyncProperty(file, fc.constantFrom('/mesh/a.yaml', '/mesh/b.yaml'), fc.constantFrom(undefined, 'dflt'), async (f, name, ns) => {
        const text = render(f);
        const opts = {
          namespace: ns,
          limits: DEFAULT_FILE_LIMITS,
          pool,
          minBytes: 0,
          minFileBytes: 0,
          jobChars: f.jobChars,
          validate: true,
        };
        const loads = await pooledLoads([{ file: name, text }], { ...opts, log: (l) => logged.push(l) });
        const sync = parseText(text, name, ns);
        expect(await parseTextAsync(text, name, ns)).toEqual(sync);
        const got = loads?.files.get(name);
        if (sync.errors.length > 0) {
          // Any error: left to the in-thread parse, whose located errors the caller reports.
          expect(got).toBeUndefined();
          return;
        }
        if (!got) return; // one plain document: not narrowed, parsed in-thread
        pooledTexts++;
        workerJobs += loads!.jobs.worker;
        expect(got.result).toEqual(sync);
        const snapOpts = { version: 1 };
        got.result.inputs.forEach((input, i) => {
          // Every object's ParsedOne came from a job (the pooled pieces were used as they came back).
          const one = loads!.parsed.get(input);
          expect(one).toBeDefined();
          expect(restamp(one!, i)).toEqual(parseOne(input, i));
        });
        const pooledSnap = buildSnapshot(got.result.inputs, { ...snapOpts, cache: new PreParsedCache(loads!.parsed) });
        const plain = buildSnapshot(sync.inputs, snapOpts);
        expect(pooledSnap.errors).toEqual(plain.errors);
        expect(pooledSnap.services).toEqual(plain.services);
        expect(pooledSnap.pods).toEqual(plain.pods);
        expect(pooledSnap.virtualServices).toEqual(plain.virtualServices);
        expect(pooledSnap.destinationRules).toEqual(plain.destinationRules);
      }),
      { numRuns: 150 },
    );
    // The property ran on pooled loads, and the worker did part of them.
    expect(pooledTexts).toBeGreaterThan(30);
    expect(workerJobs).toBeGreaterThan(0);
    expect(logged).toEqual([]);
  }, 120_000);
});
