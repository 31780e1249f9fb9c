// The issue-24 mesh (./issueMesh) as the in-process benches load it: every object as a RawInput with the origin
// its multi-document file gives it (`/m/<kind>s.yaml`, document index), through one Store to a snapshot.
import type { RawInput, RawObject } from '../server/model/inputs';
import type { MeshSnapshot } from '../server/model/mesh';
import { Store } from '../server/sources/store';
import { type IssueMesh, issueMesh, KINDS } from './issueMesh';

export interface IssueStore {
  mesh: IssueMesh;
  inputs: RawInput[];
  store: Store;
  snap: MeshSnapshot;
}

export function issueStore(services: number): IssueStore {
  const mesh = issueMesh(services);
  const inputs: RawInput[] = KINDS.flatMap((k) =>
    mesh.byKind[k].map(
      (object: RawObject, doc) => ({ object, origin: { source: 'file', file: `/m/${k.toLowerCase()}s.yaml`, doc } }) as RawInput,
    ),
  );
  const store = new Store({ debounceMs: 1 });
  store.replace('bench', inputs);
  store.flush();
  return { mesh, inputs, store, snap: store.snapshot() };
}
