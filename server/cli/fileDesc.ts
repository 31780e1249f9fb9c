// The CLI bundle's `fileDesc` for the generated descriptors (server/gen/**/*_pb.ts): scripts/build-cli.mjs
// points their `@bufbuild/protobuf/codegenv2` import here. Start-up (issue 12, #24): protobuf-es 2.17 builds
// each file in a registry of its own and adds every dependency's types to it, recursively and once per path
// through the import graph (registry.addFile(dep, false, true) does not skip files it already holds), which
// cost ~100 ms for the Envoy API files. Here each direct import is handed over alone, without its own
// dependencies: the registry only needs the types the file's fields, extensions and methods name, and protoc
// lets a file name only types of the files it imports directly (`import public` aside). A file that names a
// type of an import's import (protobuf-es asserts every type it resolves) is built again with every transitive
// dependency handed over once. The result is then given back its direct dependencies: the same DescFile
// protobuf-es builds (fileDesc.test.ts compares them on every generated file).
// The build also decodes each file's FileDescriptorProto ahead of time (scripts/fileDescJson.mjs): the bundle's
// generated files hand this fileDesc the message as JSON text instead of base64, read back here with JSON.parse and
// `create` instead of protobuf-es's reflective fromBinary (issue #24: ~3x less CPU on every start that loads them).
import { create, createFileRegistry, type DescFile } from '@bufbuild/protobuf';
import { fileDesc as protobufFileDesc } from '@bufbuild/protobuf/codegenv2';
import { type FileDescriptorProto, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';

export * from '@bufbuild/protobuf/codegenv2';

/** `f` without its dependencies (the registry adds a dependency's dependencies too, recursively). */
const alone = (f: DescFile): DescFile => Object.create(f, { dependencies: { value: [] } });

/** Every transitive dependency of `imports`, once each, without their own dependencies. */
function transitive(imports: readonly DescFile[]): DescFile[] {
  const all: DescFile[] = [];
  const seen = new Set<string>();
  const visit = (f: DescFile): void => {
    if (seen.has(f.proto.name)) return;
    seen.add(f.proto.name);
    all.push(f);
    for (const d of f.dependencies) visit(d);
  };
  for (const f of imports) visit(f);
  return all.map(alone);
}

/** A field's unknown fields as scripts/fileDescJson.mjs writes them (bytes in base64). */
interface UnknownJson {
  no: number;
  wireType: number;
  data: string;
}

/** Gives `message` (built by `create` from `init`) the unknown fields `init` lists, at every depth. */
function copyUnknown(init: unknown, message: unknown): void {
  if (init === null || typeof init !== 'object' || message === null || typeof message !== 'object') return;
  if (Array.isArray(init)) {
    for (let i = 0; i < init.length; i++) copyUnknown(init[i], (message as unknown[])[i]);
    return;
  }
  for (const [k, v] of Object.entries(init)) {
    if (k === '$unknown')
      (message as { $unknown?: unknown[] }).$unknown = (v as UnknownJson[]).map((u) => ({
        no: u.no,
        wireType: u.wireType,
        data: new Uint8Array(Buffer.from(u.data, 'base64')),
      }));
    else if (v !== null && typeof v === 'object') copyUnknown(v, (message as Record<string, unknown>)[k]);
  }
}

/** What protobuf-es's fileDesc does after decoding, for a FileDescriptorProto decoded at build time (JSON text). */
function fileDescFromJson(json: string, imports: readonly DescFile[]): DescFile {
  const init = JSON.parse(json) as Record<string, unknown>;
  const root: FileDescriptorProto = create(FileDescriptorProtoSchema, init);
  copyUnknown(init, root);
  root.dependency = imports.map((f) => f.proto.name);
  const registry = createFileRegistry(root, (name) => imports.find((f) => f.proto.name === name));
  const file = registry.getFile(root.name);
  if (!file) throw new Error(`fileDesc: ${root.name} not built`);
  return file;
}

/** protobuf-es's fileDesc for base64 (the sources), or the build-time decoded JSON text (the bundle). */
const build = (desc: string, imports: readonly DescFile[]): DescFile =>
  desc.charCodeAt(0) === 0x7b ? fileDescFromJson(desc, imports) : protobufFileDesc(desc, [...imports]);

/** The file built against its direct imports only; throws when it names a type they do not declare. */
export function fileDescDirect(b64: string, imports: readonly DescFile[]): DescFile {
  return withImports(build(b64, imports.map(alone)), imports);
}

export function fileDesc(b64: string, imports?: DescFile[]): DescFile {
  if (!imports || imports.length === 0) return build(b64, []);
  try {
    return fileDescDirect(b64, imports);
  } catch {
    return withImports(build(b64, transitive(imports)), imports);
  }
}

/** What protobuf-es records: the direct imports, in order (the wrappers handed over were only for the build). */
function withImports(file: DescFile, imports: readonly DescFile[]): DescFile {
  (file as { dependencies: DescFile[] }).dependencies = [...imports];
  file.proto.dependency = imports.map((f) => f.proto.name);
  return file;
}
