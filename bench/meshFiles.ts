// issue 12's generated mesh written as a user keeps it: one YAML file per object in one directory, plus a
// bare Pod (svc-0, version v1) whose IP the endpoint bench changes by rewriting its file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { RawObject } from '../server/sources/types';
import { generateMesh } from './generateMesh';

export interface MeshFiles {
  dir: string;
  files: number;
  /** The file of VirtualService svc-0 (namespace ns-0) and the object in it. */
  vsFile: string;
  vsObject: RawObject;
  /** The bench Pod's file; `podObject(ip)` is its content with that IP. */
  podFile: string;
  podObject: (ip: string) => RawObject;
}

export const benchPod = (ip: string): RawObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'svc-0-bench', namespace: 'ns-0', labels: { app: 'svc-0', version: 'v1' } },
  spec: { containers: [{ name: 'app', image: 'example/app:1', ports: [{ containerPort: 8080 }] }] },
  status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
});

export function writeMeshFiles(services: number, opts: { scoped?: boolean; namespaces?: number } = {}): MeshFiles {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-bench-'));
  const objects = generateMesh({ services, scoped: opts.scoped ?? true, ...(opts.namespaces ? { namespaces: opts.namespaces } : {}) }).map(
    (i) => i.object,
  );
  let vsFile = '';
  let vsObject: RawObject | undefined;
  objects.forEach((o, n) => {
    const md = o.metadata as { name: string; namespace?: string };
    const file = join(dir, `${String(n).padStart(6, '0')}-${String(o.kind)}-${md.namespace ?? ''}-${md.name}.yaml`);
    writeFileSync(file, stringify(o));
    if (o.kind === 'VirtualService' && md.name === 'svc-0') {
      vsFile = file;
      vsObject = o;
    }
  });
  const podFile = join(dir, 'zz-Pod-ns-0-svc-0-bench.yaml');
  writeFileSync(podFile, stringify(benchPod('10.199.0.1')));
  if (!vsObject) throw new Error('generated mesh has no VirtualService svc-0');
  return { dir, files: objects.length + 1, vsFile, vsObject, podFile, podObject: benchPod };
}

/** VirtualService svc-0 with weights w / 100-w (each edit a real content change). */
export function vsWithWeight(vs: RawObject, w: number): RawObject {
  const o = structuredClone(vs) as { spec: { http: { route: { weight: number }[] }[] } };
  o.spec.http[0]!.route[0]!.weight = w;
  o.spec.http[0]!.route[1]!.weight = 100 - w;
  return o as unknown as RawObject;
}
