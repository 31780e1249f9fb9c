// The agreed layering as data (the layering notes, lowest first), checked by server/layering.test.ts:
//   0 server/lib  1 server/model  2 envoy, translate, simulate, analyze, sources, live (pods' own Envoy dumps)
//   3 pipeline (translate+encode+cache), impact (change → proxies), meshGraph, simulateMesh (simulate a mesh
//     proxy: pipeline + simulate), xds, sandbox, demo (the loopback data plane), auth (sign-in, reviews, audit)  4 api  5 runtime, cli, app (and components, which may
//     import only COMPONENTS_MAY_IMPORT from server/).
// A module imports only from its own layer or lower ones; no file or folder cycles.
import type { Layer } from './importGraph';

export const LAYERS: readonly Layer[] = [
  { name: 'lib', rank: 0, prefixes: ['server/lib/', 'server/gen/'] },
  { name: 'model', rank: 1, prefixes: ['server/model/'] },
  {
    name: 'envoy, translate, simulate, analyze, sources',
    rank: 2,
    prefixes: [
      'server/envoy/',
      'server/translate/',
      'server/envoyfilter/',
      'server/simulate/',
      'server/analyze/',
      'server/sources/',
      'server/live/',
    ],
  },
  {
    name: 'pipeline, impact, meshGraph, simulateMesh, xds, sandbox, demo, drift, archive, auth, prometheus',
    rank: 3,
    prefixes: [
      'server/pipeline/',
      'server/impact/',
      'server/meshGraph/',
      'server/simulateMesh/',
      'server/xds/',
      'server/sandbox/',
      'server/demo/',
      'server/drift/',
      'server/archive/',
      'server/auth/',
      'server/prometheus/',
    ],
  },
  { name: 'api', rank: 4, prefixes: ['server/api/'] },
  {
    name: 'runtime, isolate, cli, app',
    rank: 5,
    prefixes: [
      'server/runtime.ts',
      'server/runtimeSources.ts',
      'server/runtimeEnv.ts',
      'server/requestContext.ts',
      'server/isolate/',
      'server/cli.ts',
      'server/cli/',
      'app/',
      'instrumentation.ts',
      'components/',
    ],
  },
];

/** What components/ may import from server/ (browser-safe, pure modules and types). */
export const COMPONENTS_MAY_IMPORT: readonly string[] = [
  'components/',
  'server/lib/',
  'server/model/',
  'server/envoy/dumpModel/',
  'server/envoy/dumpReader.ts',
  'server/simulate/',
  'server/sandbox/types.ts',
  'server/drift/types.ts',
  'server/meshGraph/ids.ts',
  // Pure, imports only types: the overview merges a per-proxy graph into a graph type in the browser too.
  'server/meshGraph/graphType.ts',
  'server/translate/provenance.ts',
  'server/api/types.ts',
  'server/api/contract.ts',
];

/** Sub-folders that are a unit of their own: translate's stages and root files (feat/translator is still
 *  moving them), the dump model (it reads Istio's names from translate, while translate uses envoy's type
 *  URLs), and each UI feature's pure model/ apart from its views. */
export function folderOf(file: string): string {
  const p = file.split('/');
  if (file.startsWith('server/envoy/dumpModel/')) return 'server/envoy/dumpModel';
  if (file.startsWith('server/translate/')) return p.length <= 3 ? file : p.slice(0, 3).join('/');
  if (p[0] === 'components' && p[2] === 'model' && p.length > 3) return p.slice(0, 3).join('/');
  return p.length <= 2 ? file : p.slice(0, 2).join('/');
}

/** Tests and their support (fixtures, harnesses, builders): leaves of the graph, free to use any layer. */
export const isTestSupport = (f: string): boolean =>
  /\.test\.tsx?$|\.testing\.ts$|\/testing(\/|\.ts$)|\/testView\.ts$/.test(f) ||
  f.startsWith('server/acceptance/') ||
  f.startsWith('server/xds/e2e/');
