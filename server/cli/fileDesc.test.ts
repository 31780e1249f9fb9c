// The CLI bundle's fileDesc (scripts/build-cli.mjs swaps it in for the generated descriptors) must build
// exactly the descriptors protobuf-es's own fileDesc builds: same FileDescriptorProto bytes, same direct
// dependencies, same types with the same fields, and field types resolved to the very same descriptor
// objects of the dependency files (what toBinary/toJson/Any packing walk). Checked on every generated file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type DescFile, toBinary } from '@bufbuild/protobuf';
import { nestedTypes } from '@bufbuild/protobuf/reflect';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/paths';
import { fileDescJson } from '../../scripts/fileDescJson.mjs';
import { fileDesc, fileDescDirect } from './fileDesc';

const GEN = join(REPO_ROOT, 'server', 'gen');
const DESC = /export const (file_\w+): GenFile = \/\*@__PURE__\*\/\s*fileDesc\("([^"]+)"/g;

function genFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? genFiles(join(dir, e.name)) : e.name.endsWith('_pb.ts') ? [join(dir, e.name)] : [],
  );
}

/** Object identity as a number (equal numbers ⇔ the same object). */
let next = 0;
const ids = new WeakMap<object, number>();
const id = (o: object): number => {
  let n = ids.get(o);
  if (n === undefined) ids.set(o, (n = ++next));
  return n;
};

/** Everything of a descriptor the runtime reads; references to other files' descriptors by identity. */
function shape(f: DescFile) {
  return {
    name: f.proto.name,
    proto: Buffer.from(toBinary(FileDescriptorProtoSchema, f.proto)).toString('base64'),
    dependencies: f.dependencies.map(id),
    edition: f.edition,
    types: [...nestedTypes(f)].map((t) => ({
      kind: t.kind,
      typeName: t.typeName,
      file: t.file.proto.name,
      fields:
        t.kind === 'message'
          ? t.fields.map((fd) => ({
              name: fd.name,
              number: fd.number,
              jsonName: fd.jsonName,
              fieldKind: fd.fieldKind,
              scalar: 'scalar' in fd ? fd.scalar : undefined,
              presence: fd.presence,
              packed: 'packed' in fd ? fd.packed : undefined,
              oneof: fd.oneof?.name,
              // Types of other files: the same objects; of this file: the same names.
              message: 'message' in fd && fd.message ? (fd.message.file === f ? fd.message.typeName : id(fd.message)) : undefined,
              enum: 'enum' in fd && fd.enum ? (fd.enum.file === f ? fd.enum.typeName : id(fd.enum)) : undefined,
            }))
          : undefined,
      values: t.kind === 'enum' ? t.values.map((v) => [v.name, v.number]) : undefined,
      methods: t.kind === 'service' ? t.methods.map((m) => [m.name, m.input.typeName, m.output.typeName]) : undefined,
    })),
  };
}

describe('fileDesc for the CLI bundle', () => {
  const files = genFiles(GEN);

  it('finds the generated files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('builds the same descriptor as protobuf-es for every generated file', async () => {
    let checked = 0;
    for (const path of files) {
      const mod = (await import(pathToFileURL(path).href)) as Record<string, DescFile>;
      for (const [, name, b64] of readFileSync(path, 'utf8').matchAll(DESC)) {
        const ref = mod[name as string] as DescFile;
        const ours = fileDesc(b64 as string, ref.dependencies.length ? ref.dependencies : undefined);
        expect(shape(ours), `${name}`).toEqual(shape(ref));
        checked++;
      }
    }
    expect(checked).toBe(files.length);
  });

  it('builds the same descriptor from the FileDescriptorProto the bundle build decodes (scripts/fileDescJson.mjs)', async () => {
    // The bundle's generated files carry each descriptor decoded at build time, as JSON text: read back with
    // JSON.parse + create, it must give what protobuf-es decodes from the base64 (same proto bytes, unknown fields
    // of the options included, same json names, same types resolved to the same objects), direct imports or not.
    let checked = 0;
    let withUnknown = 0;
    for (const path of files) {
      const mod = (await import(pathToFileURL(path).href)) as Record<string, DescFile>;
      for (const [, name, b64] of readFileSync(path, 'utf8').matchAll(DESC)) {
        const ref = mod[name as string] as DescFile;
        const json = fileDescJson(b64 as string);
        expect(json.startsWith('{'), `${name}`).toBe(true);
        if (json.includes('"$unknown"')) withUnknown++;
        const deps = ref.dependencies.length ? ref.dependencies : undefined;
        expect(shape(fileDesc(json, deps)), `${name}`).toEqual(shape(ref));
        if (deps) expect(shape(fileDescDirect(json, deps)), `${name}`).toEqual(shape(ref));
        checked++;
      }
    }
    expect(checked).toBe(files.length);
    // The options' extensions (validate rules, udpa / envoy annotations) are unknown fields: they must survive.
    expect(withUnknown).toBeGreaterThan(20);
  });

  it('builds every generated file from its direct imports alone (no fallback to the transitive ones)', async () => {
    let direct = 0;
    for (const path of files) {
      const mod = (await import(pathToFileURL(path).href)) as Record<string, DescFile>;
      for (const [, name, b64] of readFileSync(path, 'utf8').matchAll(DESC)) {
        const ref = mod[name as string] as DescFile;
        if (ref.dependencies.length === 0) continue;
        expect(shape(fileDescDirect(b64 as string, ref.dependencies)), `${name}`).toEqual(shape(ref));
        direct++;
      }
    }
    expect(direct).toBeGreaterThan(50);
  });

  it('falls back to the transitive dependencies when a file names a type of an import of an import', async () => {
    // Like `import public`: cluster.proto handed one import that declares the first of its direct imports' types
    // and imports the others. Built from that import alone, a field's type is not found (protobuf-es asserts);
    // fileDesc then builds it with every transitive dependency, to the same types resolved to the same objects.
    const cluster = join(GEN, 'envoy', 'config', 'cluster', 'v3', 'cluster_pb.ts');
    const mod = (await import(pathToFileURL(cluster).href)) as Record<string, DescFile>;
    const ref = mod.file_envoy_config_cluster_v3_cluster as DescFile;
    const [, , b64] = [...readFileSync(cluster, 'utf8').matchAll(DESC)][0]!;
    const publicImport: DescFile = Object.create(ref.dependencies[0]!, { dependencies: { value: ref.dependencies } });
    expect(() => fileDescDirect(b64 as string, [publicImport])).toThrow(/not found/);
    const built = fileDesc(b64 as string, [publicImport]);
    expect(built.dependencies).toEqual([publicImport]);
    expect(shape(built).types).toEqual(shape(ref).types);
  });
});
