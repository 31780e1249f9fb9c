#!/usr/bin/env node
// Extracts the OpenAPI (JSON) schemas of Istio's networking kinds from the npm package
// @kubernetes-models/istio (generated there from Istio's CRDs) into components/sandbox/schema/istio.json,
// for the sandbox editor's completion and hover. Nothing is hand-written: each model file registers its
// schema with `register(id, schema)` from @kubernetes-models/validate; we evaluate the file with that
// function (and the two others it calls) replaced by recorders, and keep what it registered.
//
//   node scripts/gen-istio-schemas.mjs          regenerate
//   node scripts/gen-istio-schemas.mjs --check  exit 1 when the checked-in file differs from the package
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const pkgDir = dirname(require.resolve('@kubernetes-models/istio/package.json'));
const out = join(root, 'components', 'sandbox', 'schema', 'istio.json');

/** Kinds the sandbox edits (v1beta1 has the same fields as v1 and ships plain schemas). */
export const KINDS = ['VirtualService', 'DestinationRule', 'Gateway', 'ServiceEntry', 'Sidecar'];

/** Drops `nullable` (YAML `null` is "unset" for the sandbox) to keep the file small. */
function strip(node) {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  const o = {};
  for (const [k, v] of Object.entries(node)) if (k !== 'nullable') o[k] = strip(v);
  return o;
}

export function extract() {
  const schemas = {};
  for (const kind of KINDS) {
    const file = join(pkgDir, 'networking.istio.io', 'v1beta1', `${kind}.js`);
    const registered = [];
    const stubs = {
      '@kubernetes-models/validate': { register: (id, schema) => registered.push({ id, schema }) },
      '@kubernetes-models/base': {
        Model: class {},
        createTypeMetaGuard: () => () => false,
        setSchema: (_ctor, _id, add) => add(),
      },
    };
    const fakeRequire = (name) => stubs[name] ?? { addSchema: () => {} };
    const module = { exports: {} };
    vm.runInNewContext(`(function (exports, require, module) {${readFileSync(file, 'utf8')}\n})`, {})(module.exports, fakeRequire, module);
    const own = registered.find((r) => r.id.endsWith(`.${kind}`));
    if (!own) throw new Error(`${file} registered no schema for ${kind}`);
    schemas[kind] = strip(own.schema.properties.spec);
  }
  const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  return { source: `@kubernetes-models/istio@${version} networking.istio.io/v1beta1`, kinds: schemas };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = `${JSON.stringify(extract())}\n`;
  if (process.argv.includes('--check')) {
    const cur = readFileSync(out, 'utf8');
    if (cur !== text) {
      console.error(`${out} is stale: run node scripts/gen-istio-schemas.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(out, text);
    console.log(`wrote ${out} (${text.length} bytes)`);
  }
}
