// Translator goldens: testdata/<case>/case.json names the inputs and the proxies; the expected Envoy config
// of each proxy is in testdata/<case>/out/<proxy>.<type>.json (Envoy's JSON, as config_dump prints it), the
// route provenance beside it in out/<proxy>.provenance.json (which VirtualService rule made each route), and
// the located problems in out/<proxy>.errors.json (input errors and translation warnings/errors, pinned like
// the output). The view stage has its own goldens (view/golden.test.ts). UPDATE_GOLDEN=1 rewrites the outputs
// and deletes stale ones. Every case's expectation was checked by hand against Istio's rules: case.json's
// "checked" field says which rules and what was verified. Cases without `expectErrors` must report no error.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../envoy/encode';
import { TYPE } from '../envoy/typeUrls';
import { translateProxy } from './index';
import { checkGoldenJson, goldenCaseNames, loadGoldenCase, portableErrors, removeStale } from './testing/goldenCases';

const KINDS = ['listeners', 'routes', 'clusters', 'endpoints'] as const;
const TYPE_OF = { listeners: TYPE.listener, routes: TYPE.route, clusters: TYPE.cluster, endpoints: TYPE.endpoint } as const;
const OWNED = /\.(listeners|routes|clusters|endpoints|provenance|errors)\.json$/;

const cases = goldenCaseNames();

describe('translator goldens', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));

  for (const name of cases) {
    it(name, () => {
      const c = loadGoldenCase(name);
      const { snapshot: snap, outDir } = c;
      if (!c.spec.expectErrors) expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
      const written = new Set<string>();
      for (const { label, proxy, selector } of c.proxies) {
        expect(proxy, `proxy ${JSON.stringify(selector)}`).toBeDefined();
        if (!proxy) continue;
        const table = translateProxy(snap, proxy, c.options);
        if (!c.spec.expectErrors) expect(table.errors.filter((e) => e.severity === 'error')).toEqual([]);
        for (const kind of KINDS) {
          const json = table[kind].map((r) => {
            const n = 'name' in r ? r.name : (r as { clusterName?: string }).clusterName;
            return encodeResource(TYPE_OF[kind], n ?? '', r).json;
          });
          checkGoldenJson(join(outDir, `${label}.${kind}.json`), json, written);
        }
        checkGoldenJson(join(outDir, `${label}.provenance.json`), table.provenance, written);
        checkGoldenJson(
          join(outDir, `${label}.errors.json`),
          { input: portableErrors(snap.errors, c.dir), translation: portableErrors(table.errors, c.dir) },
          written,
        );
      }
      removeStale(outDir, written, (f) => OWNED.test(f));
    });
  }
});
