// A pod in a Pods input never expands its owners (issue 24): Kubernetes' ownership chain, as the garbage
// collector reads `metadata.ownerReferences` (the controller reference), and the Deployment controller's
// ReplicaSet naming `<deployment>-<pod-template-hash>` (kubernetes pkg/controller/deployment/sync.go,
// getNewReplicaSet). Checked through the real file loader (a `kind: List` export and multi-document files).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadPaths } from '../../sources/file/loadPaths';
import { buildSnapshot } from '../snapshot';

const dir = mkdtempSync(join(tmpdir(), 'meshscope-owners-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'web:1' }] } };
const deployment = (replicas = 3) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template },
});
const replicaSet = (name: string, owner?: string, replicas = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name,
    namespace: 'shop',
    ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner, uid: 'u1', controller: true }] } : {}),
  },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template },
});
const pod = (name: string, owner?: { kind: string; name: string }, hash?: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'shop',
    labels: { app: 'web', ...(hash ? { 'pod-template-hash': hash } : {}) },
    ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', ...owner, uid: 'u2', controller: true }] } : {}),
  },
  spec: { containers: [{ name: 'app', image: 'web:1' }] },
  status: { phase: 'Running', podIP: `10.9.0.${name.length}` },
});

let n = 0;
/** The pods of a snapshot built from `objects` written as one file (`list`: one `kind: List`, else multi-document). */
function podsOf(objects: object[], list = false): string[] {
  const file = join(dir, `in-${n++}.yaml`);
  writeFileSync(
    file,
    list ? stringify({ apiVersion: 'v1', kind: 'List', items: objects }) : objects.map((o) => stringify(o)).join('---\n'),
  );
  const r = loadPaths([file]);
  expect(r.errors).toEqual([]);
  const snap = buildSnapshot(r.inputs, { version: 1 });
  return snap.pods.map((p) => p.name).sort();
}

describe('a pod in a Pods input never expands its owners', () => {
  it('kubectl get all: Deployment + its ReplicaSet + its Pods → exactly the Pods', () => {
    const rs = 'web-5d9c7b8f4';
    const objects = [
      deployment(3),
      replicaSet(rs, 'web', 2),
      pod(`${rs}-abcde`, { kind: 'ReplicaSet', name: rs }, '5d9c7b8f4'),
      pod(`${rs}-fghij`, { kind: 'ReplicaSet', name: rs }, '5d9c7b8f4'),
    ];
    expect(podsOf(objects, true)).toEqual([`${rs}-abcde`, `${rs}-fghij`]);
    expect(podsOf(objects)).toEqual([`${rs}-abcde`, `${rs}-fghij`]);
  });

  it('no ReplicaSet object: the Deployment is found by the controller naming <deployment>-<pod-template-hash>', () => {
    const objects = [deployment(3), pod('web-7f8e9d-xyz12', { kind: 'ReplicaSet', name: 'web-7f8e9d' }, '7f8e9d')];
    expect(podsOf(objects)).toEqual(['web-7f8e9d-xyz12']);
  });

  it('a ReplicaSet name that is not <deployment>-<pod-template-hash> leaves the Deployment expanded', () => {
    // Another owner chain (e.g. a ReplicaSet made by hand): the Deployment still makes its own 2 pods.
    const pods = podsOf([deployment(2), pod('other-abc-1', { kind: 'ReplicaSet', name: 'other-abc' }, 'zzz')]);
    expect(pods).toHaveLength(3);
    expect(pods.filter((p) => p.startsWith('web-'))).toHaveLength(2);
  });

  it('StatefulSet with one of its Pods in the input → that Pod only', () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'shop' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
    };
    expect(podsOf([sts, pod('db-0', { kind: 'StatefulSet', name: 'db' })])).toEqual(['db-0']);
  });

  it('Deployment + its ReplicaSet and no Pods → the Deployment expands, the ReplicaSet it owns does not', () => {
    const pods = podsOf([deployment(3), replicaSet('web-5d9c7b8f4', 'web', 3)], true);
    expect(pods).toHaveLength(3);
    for (const p of pods) expect(p).toMatch(/^web-[0-9a-f]{10}-[a-z0-9]{5}$/);
  });

  it('a Pod without owner references, or owned by something else, expands nothing away', () => {
    expect(podsOf([deployment(2), pod('manual')])).toHaveLength(3);
    expect(podsOf([deployment(2), pod('job-1', { kind: 'Job', name: 'web' })])).toHaveLength(3);
  });

  it('ownership is per namespace: a Pod in another namespace does not stop the Deployment', () => {
    const other = { ...pod('web-5d9c7b8f4-abcde', { kind: 'ReplicaSet', name: 'web-5d9c7b8f4' }, '5d9c7b8f4') };
    (other.metadata as { namespace: string }).namespace = 'elsewhere';
    const pods = podsOf([deployment(2), other]);
    expect(pods).toHaveLength(3);
  });
});
