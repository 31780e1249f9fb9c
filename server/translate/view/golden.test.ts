// View goldens: the first stage on its own. For every translator golden case (../testdata/<case>), what
// buildProxyView selects for each proxy — Sidecar scope, imported services and VirtualServices with their
// delegate origins, egress listeners, cluster services, DestinationRules, merged Gateways and per-server
// VirtualService bindings — is pinned in out/<proxy>.view.json with the view's located problems, so a
// change in selection shows up here before it reaches any Envoy resource. UPDATE_GOLDEN=1 rewrites.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkGoldenJson, goldenCaseNames, loadGoldenCase, portableErrors, removeStale } from '../testing/goldenCases';
import { buildProxyView } from './buildProxyView';
import { describeView } from './describe';

const cases = goldenCaseNames();

describe('view goldens', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));

  for (const name of cases) {
    it(name, () => {
      const c = loadGoldenCase(name);
      const written = new Set<string>();
      for (const { label, proxy, selector } of c.proxies) {
        expect(proxy, `proxy ${JSON.stringify(selector)}`).toBeDefined();
        if (!proxy) continue;
        const view = buildProxyView(c.snapshot, proxy, c.options);
        checkGoldenJson(
          join(c.outDir, `${label}.view.json`),
          { ...describeView(view), errors: portableErrors(view.errors, c.dir) },
          written,
        );
      }
      removeStale(c.outDir, written, (f) => f.endsWith('.view.json'));
    });
  }
});
