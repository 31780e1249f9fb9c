// buildSnapshot on Istio's real Bookinfo manifests and on small inputs in ./testdata.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPaths } from '../sources/file/loadPaths';
import { buildSnapshot } from './snapshot';
import { bookinfo } from '../testing/paths';

const FIX = bookinfo();
const BOOKINFO = join(FIX, 'platform/bookinfo.yaml');
const TD = join(import.meta.dirname, 'testdata');

function load(paths: string[]) {
  const r = loadPaths(paths);
  return buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
}

describe('Bookinfo (istio samples/bookinfo)', () => {
  const networking = readdirSync(join(FIX, 'networking')).filter((f) => f.endsWith('.yaml'));

  it.each(networking)('networking/%s loads with platform/bookinfo.yaml without errors', (file) => {
    const snap = load([BOOKINFO, join(FIX, 'networking', file)]);
    expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
    const istioCount = snap.virtualServices.length + snap.destinationRules.length + snap.gateways.length + snap.serviceEntries.length;
    expect(istioCount).toBeGreaterThan(0);
  });

  it('all networking files together: no error-level LoadErrors; gateway and ServiceEntry parse', () => {
    const snap = load([BOOKINFO, join(FIX, 'networking')]);
    expect(snap.errors.filter((e) => e.severity === 'error')).toEqual([]);
    expect(snap.gateways.map((g) => `${g.meta.namespace}/${g.meta.name}`).sort()).toEqual([
      'default/bookinfo-gateway',
      'istio-system/cert-manager-gateway',
    ]);
    expect(snap.serviceEntries.map((s) => s.meta.name)).toEqual(['googleapis']);
    // conversion.go:convertServices: one service per host, DNS resolution, MESH_EXTERNAL by default.
    const g = snap.servicesByHost.get('www.googleapis.com')?.[0];
    expect(g).toMatchObject({ registry: 'External', resolution: 'DNS', meshExternal: true, address: '0.0.0.0' });
    expect(g?.ports.map((p) => [p.port, p.protocol])).toEqual([
      [80, 'HTTP'],
      [443, 'HTTPS'],
    ]);
    // DNS with no endpoints: one endpoint per port whose address is the host.
    expect(
      snap.endpoints
        .get('default/www.googleapis.com')
        ?.get(443)
        ?.map((e) => `${e.address}:${e.port}`),
    ).toEqual(['www.googleapis.com:443']);
  });

  it('bookinfo.yaml: services with hostnames <name>.<ns>.svc.cluster.local, port 9080 HTTP from name "http"', () => {
    const snap = load([BOOKINFO]);
    expect(snap.errors).toEqual([]);
    expect(snap.services.map((s) => s.hostname).sort()).toEqual([
      'details.default.svc.cluster.local',
      'productpage.default.svc.cluster.local',
      'ratings.default.svc.cluster.local',
      'reviews.default.svc.cluster.local',
    ]);
    for (const s of snap.services) {
      expect(s.ports).toEqual([{ name: 'http', port: 9080, protocol: 'HTTP', targetPort: 9080 }]);
      expect(s.resolution).toBe('ClientSideLB');
      expect(s.address).toMatch(/^10\.96\.\d+\.\d+$/);
    }
    expect(new Set(snap.services.map((s) => s.address)).size).toBe(4);
  });

  it('bookinfo.yaml: 6 pods from 6 Deployments, all sidecar proxies (no Namespace declared → injected)', () => {
    const snap = load([BOOKINFO]);
    expect(snap.pods).toHaveLength(6);
    expect(snap.pods.map((p) => `${p.labels.app}-${p.labels.version}`).sort()).toEqual([
      'details-v1',
      'productpage-v1',
      'ratings-v1',
      'reviews-v1',
      'reviews-v2',
      'reviews-v3',
    ]);
    expect(snap.proxies).toHaveLength(6);
    expect(snap.proxies.every((p) => p.type === 'sidecar')).toBe(true);
    for (const p of snap.proxies) {
      expect(p.id).toBe(`${p.name}.default`);
      expect(snap.proxiesById.get(p.id)).toBe(p);
    }
    const reviews = snap.pods.find((p) => p.labels.version === 'v2' && p.labels.app === 'reviews');
    expect(reviews?.serviceAccount).toBe('bookinfo-reviews');
    expect(reviews?.name).toMatch(/^reviews-v2-[0-9a-f]{10}-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(new Set(snap.pods.map((p) => p.ip)).size).toBe(6);
  });

  it("bookinfo.yaml: reviews endpoints carry the pods' version labels (subset selection)", () => {
    const snap = load([BOOKINFO]);
    const eps = snap.endpoints.get('default/reviews.default.svc.cluster.local')?.get(9080) ?? [];
    expect(eps.map((e) => e.labels.version).sort()).toEqual(['v1', 'v2', 'v3']);
    for (const e of eps) {
      expect(e).toMatchObject({
        port: 9080,
        servicePort: 9080,
        namespace: 'default',
        healthy: true,
        weight: 1,
        serviceAccount: 'bookinfo-reviews',
      });
      expect(snap.pods.find((p) => p.name === e.podName)?.ip).toBe(e.address);
    }
  });

  it('Istio config lists are in creation order: files without timestamps keep input order', () => {
    const snap = load([BOOKINFO, join(FIX, 'networking/bookinfo-gateway.yaml'), join(FIX, 'networking/virtual-service-all-v1.yaml')]);
    expect(snap.virtualServices.map((v) => v.meta.name)).toEqual(['bookinfo', 'productpage', 'reviews', 'ratings', 'details']);
  });

  it('the same input gives the same snapshot (deterministic)', () => {
    const a = load([BOOKINFO, join(FIX, 'networking')]);
    const b = load([BOOKINFO, join(FIX, 'networking')]);
    expect(JSON.stringify([a.pods, a.services, [...a.endpoints].map(([k, v]) => [k, [...v]])])).toBe(
      JSON.stringify([b.pods, b.services, [...b.endpoints].map(([k, v]) => [k, [...v]])]),
    );
  });
});

describe('snapshot shape', () => {
  it('is frozen (immutable) and lists implied namespaces as declared: false', () => {
    const snap = load([BOOKINFO, join(FIX, 'networking/certmanager-gateway.yaml')]);
    expect(Object.isFrozen(snap)).toBe(true);
    expect(Object.isFrozen(snap.services[0])).toBe(true);
    expect(Object.isFrozen(snap.virtualServices[0]?.spec)).toBe(true);
    expect([...snap.namespaces.values()]).toEqual([
      { name: 'default', labels: {}, declared: false },
      { name: 'istio-system', labels: {}, declared: false },
    ]);
  });

  it('the same object twice (v1 and v1beta1 are one object): the later wins, with a located warning', () => {
    const snap = load([
      join(FIX, 'networking/virtual-service-reviews-80-20.yaml'),
      join(FIX, 'networking/virtual-service-reviews-v3.yaml'),
    ]);
    expect(snap.virtualServices).toHaveLength(1);
    expect(snap.virtualServices[0]?.spec.http?.[0]?.route?.[0]?.destination.subset).toBe('v3');
    expect(snap.errors).toEqual([
      expect.objectContaining({
        severity: 'warning',
        object: 'VirtualService default/reviews',
        file: join(FIX, 'networking/virtual-service-reviews-80-20.yaml'),
        doc: 0,
      }),
    ]);
  });
});

describe('located errors; other objects still load', () => {
  it('YAML syntax error → file, doc and line; docs before and after load', () => {
    const snap = load([join(TD, 'bad-syntax.yaml')]);
    const errs = snap.errors.filter((e) => e.severity === 'error');
    expect(errs.length).toBeGreaterThan(0);
    expect(errs[0]).toMatchObject({ file: join(TD, 'bad-syntax.yaml'), doc: 1 });
    expect(errs[0]?.message).toMatch(/line \d+/);
    expect(snap.services.map((s) => s.name)).toEqual(['good-svc']);
    expect(snap.virtualServices.map((v) => v.meta.name)).toEqual(['after-broken']);
  });

  it('wrong type, unknown field and unknown kind are located; the valid DestinationRule loads; Secrets are ignored', () => {
    const file = join(TD, 'bad-objects.yaml');
    const snap = load([file]);
    expect(snap.errors).toContainEqual({
      severity: 'error',
      message: expect.stringContaining('expected number'),
      file,
      doc: 0,
      object: 'VirtualService default/wrong-type',
      path: 'spec.http[0].route[0].weight',
    });
    // Unknown fields warn and are dropped; the object loads (kube-apiserver fieldValidation=Warn, KEP-2885).
    expect(snap.errors).toContainEqual({
      severity: 'warning',
      message: 'unknown field "roundRobinFlavour" (ignored)',
      file,
      doc: 1,
      object: 'DestinationRule default/unknown-field',
      path: 'spec.trafficPolicy.loadBalancer.roundRobinFlavour',
    });
    expect(snap.errors).toContainEqual({
      severity: 'warning',
      message: 'unknown kind Frobnicator (ignored)',
      file,
      doc: 2,
      object: 'Frobnicator default/frob',
    });
    expect(snap.errors.some((e) => e.message.includes('Secret'))).toBe(false);
    expect(snap.virtualServices).toEqual([]);
    expect(snap.destinationRules.map((d) => d.meta.name).sort()).toEqual(['reviews', 'unknown-field']);
    expect(snap.destinationRules.find((d) => d.meta.name === 'unknown-field')?.spec.trafficPolicy?.loadBalancer).toEqual({
      simple: 'ROUND_ROBIN',
    });
  });

  it('unknown top-level and metadata fields are located warnings on every kind; the objects load', () => {
    const r = loadPaths(['-'], {
      stdin: [
        'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: vs, bogus: 1}\nextra: true\nspec: {hosts: [a], http: [{route: [{destination: {host: a}}]}]}',
        'apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: ns, bogus: 1}\nspex: {}\nspec: {ports: [{port: 80}]}',
      ].join('\n---\n'),
    });
    const snap = buildSnapshot(r.inputs, { version: 1 });
    const w = snap.errors.map((e) => [e.severity, e.file, e.doc, e.object, e.path, e.message]);
    expect(w).toEqual([
      ['warning', '<stdin>', 0, 'VirtualService default/vs', 'extra', 'unknown field "extra" (ignored)'],
      ['warning', '<stdin>', 0, 'VirtualService default/vs', 'metadata.bogus', 'unknown field "bogus" (ignored)'],
      ['warning', '<stdin>', 1, 'Service ns/svc', 'spex', 'unknown field "spex" (ignored)'],
      ['warning', '<stdin>', 1, 'Service ns/svc', 'metadata.bogus', 'unknown field "bogus" (ignored)'],
    ]);
    expect(snap.virtualServices.map((v) => v.meta.name)).toEqual(['vs']);
    expect(snap.services.map((s) => s.name)).toEqual(['svc']);
  });

  it('webhook rules (validation.go): weights != 100, route+redirect, missing destination host, HTTPS without TLS', () => {
    const snap = load([join(TD, 'webhook-rules.yaml')]);
    const by = (name: string) =>
      snap.errors.filter((e) => e.object?.endsWith(`/${name}`) && !e.notTranslated).map((e) => [e.path, e.message]);
    expect(by('weights-90')).toEqual([['spec.http[0].route', 'total destination weight 90 != 100']]);
    expect(by('redirect-and-route')).toEqual([['spec.http[0]', 'HTTP route cannot contain both route and redirect']]);
    expect(by('missing-host')).toEqual([['spec.http[0].route[0].destination.host', 'destination host is required']]);
    expect(by('https-without-tls')).toEqual([['spec.servers[0].tls', 'server must have TLS settings for HTTPS/TLS protocols']]);
    expect(snap.virtualServices.map((v) => v.meta.name)).toEqual(['valid-split']);
    // Each rejected object is kept for the analyzers only, with one located "not translated" note
    // (istiod's validating webhook would refuse it; istioctl analyze on files still analyzes it).
    const rejected = ['weights-90', 'redirect-and-route', 'missing-host', 'https-without-tls'];
    expect((snap.rejectedConfigs ?? []).map((c) => c.meta.name).sort()).toEqual([...rejected].sort());
    const notes = snap.errors.filter((e) => e.notTranslated);
    expect(notes.map((e) => e.object?.split('/')[1]).sort()).toEqual([...rejected].sort());
    for (const n of notes) expect(n).toMatchObject({ severity: 'warning', file: expect.stringMatching(/webhook-rules\.yaml$/) });
  });
});
