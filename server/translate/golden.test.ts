// Translator goldens: testdata/<case>/case.json names the inputs and the proxies; the expected Envoy config
// of each proxy is in testdata/<case>/out/<proxy>.<type>.json (Envoy's JSON, as config_dump prints it), and
// the route provenance beside it in out/<proxy>.provenance.json (which VirtualService rule made each route).
// UPDATE_GOLDEN=1 rewrites the outputs and deletes stale ones. Every case's expectation was checked by hand
// against Istio's rules: case.json's "checked" field says which rules and what was verified.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { DEFAULT_OPTIONS, type TranslateOptions } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { fixturesDir, REPO_ROOT } from '../testing/paths';
import { translateProxy } from './index';

interface GoldenCase {
  /** Input files/dirs; `fixtures:` prefix = ../shared/fixtures, else relative to the case dir. */
  inputs: string[];
  /** Proxies to translate: an id `POD.NS`, or `{namespace, labels}` picking the first matching proxy. */
  proxies: (string | { namespace: string; labels: Record<string, string> })[];
  options?: Partial<TranslateOptions>;
  checked: string;
}

const root = resolve(REPO_ROOT, 'server/translate/testdata');
const update = process.env.UPDATE_GOLDEN === '1';
const KINDS = ['listeners', 'routes', 'clusters', 'endpoints'] as const;
const TYPE_OF = { listeners: TYPE.listener, routes: TYPE.route, clusters: TYPE.cluster, endpoints: TYPE.endpoint } as const;

const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'case.json')))
  .map((d) => d.name)
  .sort();

describe('translator goldens', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));

  for (const name of cases) {
    it(name, () => {
      const dir = join(root, name);
      const c = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as GoldenCase;
      const paths = c.inputs.map((p) => (p.startsWith('fixtures:') ? join(fixturesDir(), p.slice(9)) : join(dir, p)));
      const { inputs, errors } = loadPaths(paths);
      const snap = buildSnapshot(inputs, { version: 1, extraErrors: errors });
      expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
      const outDir = join(dir, 'out');
      const written = new Set<string>();
      for (const sel of c.proxies) {
        const proxy =
          typeof sel === 'string'
            ? snap.proxiesById.get(sel)
            : snap.proxies.find((p) => p.namespace === sel.namespace && Object.entries(sel.labels).every(([k, v]) => p.labels[k] === v));
        expect(proxy, `proxy ${JSON.stringify(sel)}`).toBeDefined();
        if (!proxy) continue;
        const table = translateProxy(snap, proxy, { ...DEFAULT_OPTIONS, ...c.options });
        expect(table.errors.filter((e) => e.severity === 'error')).toEqual([]);
        const label = typeof sel === 'string' ? sel : `${sel.namespace}.${Object.values(sel.labels).join('-')}`;
        for (const kind of KINDS) {
          const json = table[kind].map((r) => {
            const n = 'name' in r ? r.name : (r as { clusterName?: string }).clusterName;
            return encodeResource(TYPE_OF[kind], n ?? '', r).json;
          });
          const file = join(outDir, `${label}.${kind}.json`);
          written.add(file);
          const text = JSON.stringify(json, null, 2) + '\n';
          if (update) {
            mkdirSync(outDir, { recursive: true });
            writeFileSync(file, text);
          } else {
            expect(existsSync(file), `${file} missing: run UPDATE_GOLDEN=1 and check it`).toBe(true);
            expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
          }
        }
        const file = join(outDir, `${label}.provenance.json`);
        written.add(file);
        const text = JSON.stringify(table.provenance, null, 2) + '\n';
        if (update) writeFileSync(file, text);
        else {
          expect(existsSync(file), `${file} missing: run UPDATE_GOLDEN=1 and check it`).toBe(true);
          expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
        }
      }
      if (update && existsSync(outDir)) for (const f of readdirSync(outDir)) if (!written.has(join(outDir, f))) rmSync(join(outDir, f));
    });
  }
});
