// Integration over Istio's own Bookinfo manifests (shared fixtures), through the real file loader and
// snapshot builder: the view, CDS and EDS of a reviews-v2 sidecar.
import { describe, expect, it } from 'vitest';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import { DEFAULT_OPTIONS } from '../../../model/mesh';
import { buildSnapshot } from '../../../model/snapshot';
import { loadPaths } from '../../../sources/file/loadPaths';
import { buildProxyView } from '../../view/buildProxyView';
import { buildEndpoints } from '../endpoints/index';
import { buildClusters } from './index';
import { bookinfo } from '../../../testing/paths';

const F = bookinfo();
const loaded = loadPaths([`${F}/platform/bookinfo.yaml`, `${F}/networking/destination-rule-all.yaml`], { namespace: 'default' });
const snap = buildSnapshot(loaded.inputs, { version: 1 });
const proxy = snap.proxies.find((p) => p.labels['app'] === 'reviews' && p.labels['version'] === 'v2')!;
const view = buildProxyView(snap, proxy, DEFAULT_OPTIONS);
const { clusters, errors } = buildClusters(view);
const R = 'reviews.default.svc.cluster.local';

describe('Bookinfo with destination-rule-all.yaml, seen from reviews-v2', () => {
  it('loads without errors and every cluster encodes', () => {
    expect([...loaded.errors, ...snap.errors, ...errors]).toEqual([]);
    for (const c of clusters) encodeResource(TYPE.cluster, c.name ?? '', c);
  });

  it('has the default and v1/v2/v3 subset clusters of reviews (one per DestinationRule subset)', () => {
    expect(clusters.map((c) => c.name).filter((n) => n?.endsWith(`|${R}`))).toEqual([
      `outbound|9080||${R}`,
      `outbound|9080|v1|${R}`,
      `outbound|9080|v2|${R}`,
      `outbound|9080|v3|${R}`,
    ]);
  });

  it('EDS of each reviews subset holds exactly the pods whose labels carry that version', () => {
    const eds = buildEndpoints(view, clusters);
    for (const v of ['v1', 'v2', 'v3']) {
      const cla = eds.find((e) => e.clusterName === `outbound|9080|${v}|${R}`)!;
      const got = (cla.endpoints ?? []).flatMap((l) => (l.lbEndpoints ?? []).map((e) => e.endpoint?.address?.socketAddress?.address));
      const want = snap.pods.filter((p) => p.labels['app'] === 'reviews' && p.labels['version'] === v).map((p) => p.ip);
      expect(got).toEqual(want);
      expect(want).toHaveLength(1);
    }
  });

  it('the sidecar gets its inbound cluster for the reviews target port', () => {
    const inbound = clusters.find((c) => c.name === 'inbound|9080||');
    expect(inbound?.type).toBe('ORIGINAL_DST');
    expect(view.serviceTargets.map((t) => t.service.hostname)).toContain(R);
  });
});
