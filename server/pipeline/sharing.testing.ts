// Helpers of the pipeline's sharing property tests (sharing.property.test.ts, encodeTemplate.property.test.ts):
// a generated mesh's objects as a snapshot, what a proxy is sent and told, and a proxy's resources built alone.
import { DEFAULT_OPTIONS, type MeshSnapshot, type ProxyModel } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import type { RawInput, RawObject } from '../sources/types';
import { encodeTable } from './encodeTable';
import { resourcesDigest } from './proxyResources';
import { buildProxyTable } from './stages';
import type { ProxyResources } from './types';

/** Generated objects as one snapshot (version 1), each its own document of one file. */
export const snapshotOfObjects = (objects: readonly RawObject[]): MeshSnapshot =>
  buildSnapshot(
    objects.map((object, doc): RawInput => ({ object, origin: { source: 'demo', file: 'generated', doc } })),
    { version: 1 },
  );

/** What a proxy is sent and told: every resource's bytes (by hash), errors, provenance. */
export const fingerprint = (r: ProxyResources) => ({
  digest: resourcesDigest(r),
  errors: JSON.stringify(r.errors),
  provenance: JSON.stringify(r.provenance),
});

/** What the pipeline serves a proxy built alone: translation, the EnvoyFilter stage, encoding. */
export const alone = (snap: MeshSnapshot, p: ProxyModel): ProxyResources =>
  encodeTable(p, snap.version, buildProxyTable(snap, p, DEFAULT_OPTIONS));
