// Build time (scripts/build-cli.mjs): each generated file's FileDescriptorProto decoded here once, so the CLI bundle
// does not decode it on every start. protobuf-es's `fileDesc(b64)` reads the embedded descriptor with its reflective
// `fromBinary` (issue #24: ~65 ms of every `translate` / `simulate` start for the 108 generated files); the bundle
// instead carries the decoded message as JSON text, which server/cli/fileDesc.ts reads back with `JSON.parse` and
// `create` (~3x less CPU, measured in docs/perf/issue24-cli.md, session 11).
// The JSON holds exactly the fields `fromBinary` set (a message's own properties: proto2 defaults stay on the
// prototype `create` gives it), after protobuf-es's `restoreJsonNames` (what its `fileDesc` does next), and the
// unknown fields protobuf-es keeps (the options' extensions: validate, udpa, envoy annotations) with their bytes in
// base64. server/cli/fileDesc.test.ts builds every generated file both ways and compares the descriptors.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fromBinary } from '@bufbuild/protobuf';
import { base64Decode } from '@bufbuild/protobuf/wire';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';

// protobuf-es's own restoreJsonNames (not among the package's exports; the same module its fileDesc uses).
const esm = dirname(fileURLToPath(import.meta.resolve('@bufbuild/protobuf')));
const { restoreJsonNames } = await import(pathToFileURL(join(esm, 'codegenv2', 'restore-json-names.js')).href);

/** A message as JSON: its own fields (not `$typeName`), unknown fields' bytes as base64. Throws on what JSON cannot keep. */
function plain(v) {
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'bigint' || (typeof v === 'number' && !Number.isFinite(v))) throw new Error(`fileDescJson: ${typeof v} ${v}`);
    return v;
  }
  if (v instanceof Uint8Array) throw new Error('fileDescJson: bytes field');
  const out = {};
  for (const k of Object.keys(v)) {
    if (k === '$typeName') continue;
    out[k] =
      k === '$unknown' ? v[k].map((u) => ({ no: u.no, wireType: u.wireType, data: Buffer.from(u.data).toString('base64') })) : plain(v[k]);
  }
  return out;
}

/** The JSON text of the FileDescriptorProto embedded as `b64`, as protobuf-es's fileDesc holds it before building. */
export function fileDescJson(b64) {
  const root = fromBinary(FileDescriptorProtoSchema, base64Decode(b64));
  root.messageType.forEach(restoreJsonNames);
  return JSON.stringify(plain(root));
}

/** A generated `_pb.ts` source with each `fileDesc("<base64>"` call given the decoded JSON text instead. */
export function withDecodedFileDescs(source) {
  return source.replace(/\bfileDesc\("([A-Za-z0-9+/=]+)"/g, (_, b64) => `fileDesc(${JSON.stringify(fileDescJson(b64))}`);
}
