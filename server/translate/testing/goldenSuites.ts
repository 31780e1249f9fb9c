// The two golden stages, run per case by golden.test.ts (cases with inputs in this repo) and
// golden.conformance.test.ts (cases reading ../shared/fixtures):
// - view: what buildProxyView selects for each proxy, on its own (out/<proxy>.view.json, describeView, with
//   the view's located problems);
// - translation: the Envoy resources (out/<proxy>.<type>.json, Envoy's JSON as config_dump prints it), the
//   route provenance (out/<proxy>.provenance.json) and every located problem, input and translation
//   (out/<proxy>.errors.json). Cases without `expectErrors` must report no error at all.
// - Gateway API cases also pin the conversion itself (out/gateway-api.json: the generated Gateways and
//   VirtualServices, as istiod's conversion goldens *.yaml.golden, and the status, as *.status.yaml.golden).
import { join } from 'node:path';
import { expect } from 'vitest';
import { encodeResource } from '../../envoy/encode';
import { TYPE } from '../../envoy/typeUrls';
import { translateProxy } from '../index';
import { buildProxyView } from '../view/buildProxyView';
import { describeView } from '../view/describe';
import { checkGoldenJson, loadGoldenCase, portableErrors, removeStale } from './goldenCases';
import { gatewayApiGolden } from './gatewayApiGolden';

const KINDS = ['listeners', 'routes', 'clusters', 'endpoints'] as const;
const TYPE_OF = { listeners: TYPE.listener, routes: TYPE.route, clusters: TYPE.cluster, endpoints: TYPE.endpoint } as const;
const TRANSLATION_FILE = /(\.(listeners|routes|clusters|endpoints|provenance|errors)|^gateway-api)\.json$/;

export function viewGolden(name: string): void {
  const c = loadGoldenCase(name);
  const written = new Set<string>();
  for (const { label, proxy, selector } of c.proxies) {
    expect(proxy, `proxy ${JSON.stringify(selector)}`).toBeDefined();
    if (!proxy) continue;
    const view = buildProxyView(c.snapshot, proxy, c.options);
    checkGoldenJson(join(c.outDir, `${label}.view.json`), { ...describeView(view), errors: portableErrors(view.errors, c.dir) }, written);
  }
  removeStale(c.outDir, written, (f) => f.endsWith('.view.json'));
}

export function translationGolden(name: string): void {
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
  if (snap.gatewayApi) checkGoldenJson(join(outDir, 'gateway-api.json'), gatewayApiGolden(snap), written);
  removeStale(outDir, written, (f) => TRANSLATION_FILE.test(f));
}
