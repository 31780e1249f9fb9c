#!/usr/bin/env node
// Generates TypeScript (protobuf-es) for the Envoy / xDS protos meshscope uses, and for meshscope's own
// descriptions of ztunnel's WDS messages (proto/ambient: istio.workload.Address, istio.security.Authorization).
// Envoy's .proto sources are NOT in this repository: they come from the npm package
// @grpc/grpc-js-xds, which ships envoy-api, xds, googleapis and protoc-gen-validate
// under deps/. Output goes to server/gen/ (git-ignored); runs on `npm install`. It is generated aside
// (server/.gen-tmp-<pid>) and moved in file by file, registry and stamp last (./installTree.mjs), so a
// running server never reads a half-written tree.
//
//   node scripts/gen-proto.mjs            regenerate
//   node scripts/gen-proto.mjs --if-stale regenerate only when the inputs changed
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDirBeside, installTree } from './installTree.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const deps = join(dirname(require.resolve('@grpc/grpc-js-xds/package.json')), 'deps');
const outDir = join(root, 'server', 'gen');
const vendor = join(root, 'proto', '.vendor');
const stamp = join(outDir, '.stamp');
const STAMP = '.stamp';

/** Entry points; their imports are generated too (include_imports). */
const ENTRIES = [
  'envoy/service/discovery/v3/ads.proto',
  'envoy/admin/v3/config_dump.proto',
  'envoy/config/listener/v3/listener.proto',
  'envoy/config/route/v3/route.proto',
  'envoy/config/cluster/v3/cluster.proto',
  'envoy/config/endpoint/v3/endpoint.proto',
  'envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager.proto',
  'envoy/extensions/filters/network/tcp_proxy/v3/tcp_proxy.proto',
  'envoy/extensions/filters/http/router/v3/router.proto',
  'envoy/extensions/filters/http/fault/v3/fault.proto',
  'envoy/extensions/filters/http/cors/v3/cors.proto',
  'envoy/extensions/filters/listener/original_dst/v3/original_dst.proto',
  'envoy/extensions/filters/listener/tls_inspector/v3/tls_inspector.proto',
  'envoy/extensions/filters/listener/http_inspector/v3/http_inspector.proto',
  'envoy/extensions/transport_sockets/tls/v3/tls.proto',
  'envoy/extensions/transport_sockets/raw_buffer/v3/raw_buffer.proto',
  'envoy/extensions/retry/host/previous_hosts/v3/previous_hosts.proto',
  'envoy/extensions/retry/priority/previous_priorities/v3/previous_priorities_config.proto',
  'envoy/extensions/filters/http/grpc_stats/v3/config.proto',
  'envoy/extensions/filters/http/grpc_web/v3/grpc_web.proto',
  'envoy/extensions/request_id/uuid/v3/uuid.proto',
  'envoy/extensions/upstreams/http/v3/http_protocol_options.proto',
  'envoy/extensions/filters/http/rbac/v3/rbac.proto',
  'envoy/extensions/filters/network/rbac/v3/rbac.proto',
  'envoy/extensions/filters/http/ext_authz/v3/ext_authz.proto',
  'envoy/extensions/filters/network/ext_authz/v3/ext_authz.proto',
  // Ambient waypoints: main_internal's filter_chain_matcher and the internal-listener upstreams.
  'xds/type/matcher/v3/ip.proto',
  'envoy/extensions/matching/common_inputs/network/v3/network_inputs.proto',
  'envoy/extensions/transport_sockets/internal_upstream/v3/internal_upstream.proto',
];
/** Entry points from the xds module (TypedStruct: the carrier of Istio-private filter configs, docs/envoyfilter.md). */
const XDS_ENTRIES = ['udpa/type/v1/typed_struct.proto', 'xds/type/v3/typed_struct.proto'];
const MODULES = ['envoy-api', 'xds', 'googleapis'];
/** Dependencies grpc-js-xds does not ship: API files importing them (and files importing those) stay out of the full set. */
const MISSING_DEPS = /^(opencensus|opentelemetry|io\/prometheus)\//;
/** meshscope's own protos (a buf module of their own) and their entry points. */
const OWN_MODULE = join(root, 'proto', 'ambient');
const OWN_ENTRIES = ['istio/workload/workload.proto', 'istio/security/authorization.proto'];

function inputsHash() {
  const h = createHash('sha256');
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  h.update(readFileSync(require.resolve('@grpc/grpc-js-xds/package.json')));
  h.update(readFileSync(require.resolve('@bufbuild/protoc-gen-es/package.json')));
  for (const e of OWN_ENTRIES) h.update(readFileSync(join(OWN_MODULE, e)));
  return h.digest('hex');
}

/** The validate.proto shipped in grpc-js-xds predates StringRules.ignore_empty, which envoy-api uses. */
function patchValidate() {
  const src = readFileSync(join(deps, 'protoc-gen-validate', 'validate', 'validate.proto'), 'utf8').replace(/\r\n/g, '\n');
  const anchor = /message StringRules \{\n/;
  if (!anchor.test(src)) throw new Error('gen-proto: StringRules not found in validate.proto');
  const patched = src.includes('ignore_empty') ? src : src.replace(anchor, (m) => `${m}    optional bool ignore_empty = 26;\n`);
  mkdirSync(join(vendor, 'pgv', 'validate'), { recursive: true });
  writeFileSync(join(vendor, 'pgv', 'validate', 'validate.proto'), patched);
}

/** server/gen/registry.ts: every generated file descriptor, for Any packing and proto3 JSON. */
function writeRegistry(outDir) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('_pb.ts')) files.push(p);
    }
  };
  walk(outDir);
  files.sort();
  const imports = [];
  const names = [];
  for (const f of files) {
    const m = /^export const (file_[A-Za-z0-9_]+)/m.exec(readFileSync(f, 'utf8'));
    if (!m) continue;
    const spec = './' + relative(outDir, f).split('\\').join('/').replace(/\.ts$/, '');
    imports.push(`import { ${m[1]} } from '${spec}';`);
    names.push(m[1]);
  }
  const body = [
    '// Generated by scripts/gen-proto.mjs. Do not edit.',
    "import { createRegistry, type Registry } from '@bufbuild/protobuf';",
    "import { file_google_protobuf_any, file_google_protobuf_duration, file_google_protobuf_struct, file_google_protobuf_wrappers, file_google_protobuf_empty, file_google_protobuf_timestamp } from '@bufbuild/protobuf/wkt';",
    ...imports,
    '',
    'export const envoyRegistry: Registry = createRegistry(',
    '  file_google_protobuf_any, file_google_protobuf_duration, file_google_protobuf_struct,',
    '  file_google_protobuf_wrappers, file_google_protobuf_empty, file_google_protobuf_timestamp,',
    ...names.map((n) => `  ${n},`),
    ');',
    '',
  ].join('\n');
  writeFileSync(join(outDir, 'registry.ts'), body);
}

/**
 * The whole v3 Envoy API the dependency ships (config, extensions, type, admin, data), as a descriptor set in
 * server/gen/envoyApiDescriptor.ts (base64): EnvoyFilter patch values decode against it (server/envoy/fullApi.ts).
 */
function fullApiFiles() {
  const api = join(deps, 'envoy-api');
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.proto')) files.push(relative(api, p).split('\\').join('/'));
    }
  };
  for (const d of ['config', 'extensions', 'type', 'admin', 'data']) walk(join(api, 'envoy', d));
  const v3 = files.filter((f) => /\/v3(alpha)?\//.test(f));
  const importsOf = new Map(
    v3.map((f) => [f, [...readFileSync(join(api, f), 'utf8').matchAll(/^import (?:public )?"([^"]+)";/gm)].map((m) => m[1])]),
  );
  const bad = new Set();
  let changed = true;
  while (changed) {
    changed = false;
    for (const [f, imports] of importsOf) {
      if (bad.has(f)) continue;
      if (
        imports.some(
          (i) => MISSING_DEPS.test(i) || bad.has(i) || (i.startsWith('envoy/') && !importsOf.has(i) && !existsSync(join(api, i))),
        )
      ) {
        bad.add(f);
        changed = true;
      }
    }
  }
  return v3.filter((f) => !bad.has(f)).sort();
}

function writeFullApi(bufYaml, bin, rel, target) {
  const envoyApi = rel(join(deps, 'envoy-api'));
  const out = join(vendor, 'envoy-api.binpb');
  const args = ['build', '--config', JSON.stringify(bufYaml), '--exclude-source-info', '-o', rel(out)];
  for (const f of fullApiFiles()) args.push('--path', `${envoyApi}/${f}`);
  for (const f of XDS_ENTRIES) args.push('--path', `${rel(join(deps, 'xds'))}/${f}`);
  execFileSync(join(bin, 'buf'), args, { cwd: root, stdio: 'inherit', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  const b64 = readFileSync(out).toString('base64');
  writeFileSync(
    join(target, 'envoyApiDescriptor.ts'),
    `// Generated by scripts/gen-proto.mjs. Do not edit.\n// The v3 Envoy API shipped by @grpc/grpc-js-xds as a FileDescriptorSet (base64).\nexport const ENVOY_API_DESCRIPTOR_SET = '${b64}';\n`,
  );
}

function main() {
  const ifStale = process.argv.includes('--if-stale');
  const hash = inputsHash();
  if (ifStale && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  patchValidate();
  const rel = (p) => relative(root, p).split('\\').join('/');
  const modules = [...MODULES.map((m) => rel(join(deps, m))), rel(join(vendor, 'pgv')), rel(OWN_MODULE)];
  const bufYaml = { version: 'v2', modules: modules.map((path) => ({ path })) };
  const envoyApi = rel(join(deps, 'envoy-api'));
  const genYaml = {
    version: 'v2',
    clean: true,
    inputs: [
      {
        directory: '.',
        paths: [
          ...ENTRIES.map((e) => (e.startsWith('xds/') ? `${rel(join(deps, 'xds'))}/${e}` : `${envoyApi}/${e}`)),
          ...XDS_ENTRIES.map((e) => `${rel(join(deps, 'xds'))}/${e}`),
          ...OWN_ENTRIES.map((e) => `${rel(OWN_MODULE)}/${e}`),
        ],
      },
    ],
    plugins: [{ local: 'protoc-gen-es', out: rel(outDir), include_imports: true, opt: ['target=ts', 'json_types=true'] }],
  };
  const bin = join(root, 'node_modules', '.bin');
  const t0 = Date.now();
  const tmpOut = buildDirBeside(outDir);
  genYaml.plugins[0].out = rel(tmpOut);
  execFileSync(join(bin, 'buf'), ['generate', '--config', JSON.stringify(bufYaml), '--template', JSON.stringify(genYaml)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  });
  mkdirSync(tmpOut, { recursive: true });
  writeRegistry(tmpOut);
  writeFullApi(bufYaml, bin, rel, tmpOut);
  writeFileSync(join(tmpOut, STAMP), hash);
  installTree(tmpOut, outDir, { last: ['registry.ts', STAMP] });
  console.log(`gen-proto: generated Envoy types into ${rel(outDir)} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}

main();
