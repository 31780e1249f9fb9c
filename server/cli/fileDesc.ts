// The CLI bundle's `fileDesc` for the generated descriptors (server/gen/**/*_pb.ts): scripts/build-cli.mjs
// points their `@bufbuild/protobuf/codegenv2` import here. Start-up (issue 12): protobuf-es 2.17 builds each
// file in a registry of its own and adds every dependency's types again, recursively and once per path
// through the import graph (registry.addFile(dep, false, true) does not skip files it already holds), which
// cost ~100 ms for the Envoy API files. Here each transitive dependency is handed over once, without its
// own dependencies (the registry only needs their types to resolve field types), and the result is then
// given back its direct dependencies: the same DescFile protobuf-es builds (fileDesc.test.ts compares them).
import type { DescFile } from '@bufbuild/protobuf';
import { fileDesc as protobufFileDesc } from '@bufbuild/protobuf/codegenv2';

export * from '@bufbuild/protobuf/codegenv2';

export function fileDesc(b64: string, imports?: DescFile[]): DescFile {
  if (!imports || imports.length === 0) return protobufFileDesc(b64, imports);
  const all: DescFile[] = [];
  const seen = new Set<string>();
  const visit = (f: DescFile): void => {
    if (seen.has(f.proto.name)) return;
    seen.add(f.proto.name);
    all.push(f);
    for (const d of f.dependencies) visit(d);
  };
  for (const f of imports) visit(f);
  const flat = all.map((f): DescFile => Object.create(f, { dependencies: { value: [] } }));
  const file = protobufFileDesc(b64, flat);
  // What protobuf-es records: the direct imports, in order (the flattened wrappers were only for the build).
  (file as { dependencies: DescFile[] }).dependencies = [...imports];
  file.proto.dependency = imports.map((f) => f.proto.name);
  return file;
}
