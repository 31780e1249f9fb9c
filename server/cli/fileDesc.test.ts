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
import { fileDesc } from './fileDesc';

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
});
