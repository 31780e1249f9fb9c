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
import type { DescFile } from '@bufbuild/protobuf';
import { fileDesc as protobufFileDesc } from '@bufbuild/protobuf/codegenv2';

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

/** The file built against its direct imports only; throws when it names a type they do not declare. */
export function fileDescDirect(b64: string, imports: readonly DescFile[]): DescFile {
  return withImports(protobufFileDesc(b64, imports.map(alone)), imports);
}

export function fileDesc(b64: string, imports?: DescFile[]): DescFile {
  if (!imports || imports.length === 0) return protobufFileDesc(b64, imports);
  try {
    return fileDescDirect(b64, imports);
  } catch {
    return withImports(protobufFileDesc(b64, transitive(imports)), imports);
  }
}

/** What protobuf-es records: the direct imports, in order (the wrappers handed over were only for the build). */
function withImports(file: DescFile, imports: readonly DescFile[]): DescFile {
  (file as { dependencies: DescFile[] }).dependencies = [...imports];
  file.proto.dependency = imports.map((f) => f.proto.name);
  return file;
}
