// Issue #26 §2 with the real Kubernetes protocols: meshscope's reviews go over HTTP to the loopback fake API
// server (TokenReview, SubjectAccessReview as kube-apiserver answers them), and a sandbox apply runs as the
// user through impersonation (`Impersonate-User` and one `Impersonate-Group` header per group, as
// kube-apiserver reads them: staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go), so the
// cluster's RBAC for that user allows or refuses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeApplier } from '../api/apply/kube';
import { FakeApiServer } from '../sources/kube/testing/fakeApiServer';
import { kubeConfigFor } from '../sources/kube/testing/fixtures';
import { AccessControl } from './access';
import { forwardedPrincipal, identityHeaders } from './identity';
import { KubeReviews } from './reviews';
import { authSettings } from './settings';

let fake: FakeApiServer;

beforeAll(async () => {
  fake = new FakeApiServer();
  await fake.start();
  fake.auth.tokens.set('token-a', { user: 'alice', groups: ['system:authenticated'] });
  fake.auth.tokens.set('token-b', { user: 'bob', groups: ['shop-team', 'system:authenticated'] });
  // alice lists pods in default; bob's group lists pods in default and shop and may write Istio config in shop.
  fake.auth.grants.push(
    { subject: 'alice', verbs: ['list', 'get', 'watch'], resources: ['pods'], namespaces: ['default'] },
    { subject: 'group:shop-team', verbs: ['list'], resources: ['pods'], namespaces: ['default', 'shop'] },
    { subject: 'group:shop-team', verbs: ['patch', 'create'], resources: ['virtualservices'], namespaces: ['shop'] },
  );
});
afterAll(async () => {
  await fake.stop();
});

const control = () => new AccessControl(authSettings({ auth: 'token' }), new KubeReviews(() => kubeConfigFor(fake.url)));
const bearer = (t: string) => new Headers({ authorization: `Bearer ${t}` });

describe('reviews against the API server', () => {
  it('a bearer token is who the TokenReview says; its namespaces are where SubjectAccessReview allows listing pods', async () => {
    const ac = control();
    const a = await ac.viewer({ via: 'bearer' }, bearer('token-a'), ['default', 'shop'], 'istio-system');
    const b = await ac.viewer({ via: 'bearer' }, bearer('token-b'), ['default', 'shop'], 'istio-system');
    if ('status' in a || 'status' in b) throw new Error('expected viewers');
    expect([a.viewer.user, a.viewer.sees('default'), a.viewer.sees('shop'), a.viewer.sees('istio-system'), a.viewer.all]).toEqual([
      'alice',
      true,
      false,
      false,
      false,
    ]);
    expect([b.viewer.user, b.viewer.sees('default'), b.viewer.sees('shop'), b.viewer.groups]).toEqual([
      'bob',
      true,
      true,
      ['shop-team', 'system:authenticated'],
    ]);
  });

  it("an unknown token is 401 with the review's reason; no credentials at all is 401", async () => {
    const ac = control();
    const r = await ac.viewer({ via: 'bearer' }, bearer('nope'), ['default'], 'istio-system');
    expect(r).toMatchObject({ status: 401, error: expect.stringMatching(/token not accepted: invalid bearer token/) });
    expect(await ac.viewer(undefined, new Headers(), ['default'], 'istio-system')).toMatchObject({ status: 401 });
  });

  it('answers are cached briefly: a second request asks the API server nothing', async () => {
    const ac = control();
    await ac.viewer({ via: 'bearer' }, bearer('token-b'), ['default', 'shop'], 'istio-system');
    const before = { ...fake.auth.reviews };
    await ac.viewer({ via: 'bearer' }, bearer('token-b'), ['default', 'shop'], 'istio-system');
    expect(fake.auth.reviews).toEqual(before);
  });

  it('a signed-out session is refused even though its cookie is still validly signed', async () => {
    const ac = control();
    const p = forwardedPrincipal(new Headers(identityHeaders({ via: 'session', user: 'alice', groups: [], sid: 's-9' })));
    expect('viewer' in (await ac.viewer(p, new Headers(), ['default'], 'istio-system'))).toBe(true);
    ac.revoke('s-9', Math.floor(Date.now() / 1000) + 60);
    expect(await ac.viewer(p, new Headers(), ['default'], 'istio-system')).toMatchObject({ status: 401 });
  });

  it('sign-in attempts are limited per address', () => {
    const ac = control();
    const results = Array.from({ length: 12 }, () => ac.allowAttempt('10.0.0.1'));
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(ac.allowAttempt('10.0.0.2')).toBe(true);
  });
});

describe('applies run as the user (impersonation)', () => {
  const vs = (ns: string) => ({
    op: 'put' as const,
    object: {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'cart', namespace: ns },
      spec: { hosts: ['cart'], http: [{ route: [{ destination: { host: 'cart' } }] }] },
    },
  });

  it("bob's apply to shop reaches the API server as bob with both groups, dry run first, and lands", async () => {
    const applier = new KubeApplier(() => kubeConfigFor(fake.url));
    const before = fake.auth.impersonated.length;
    const out = await applier.apply([vs('shop')], { user: 'bob', groups: ['shop-team', 'system:authenticated'] });
    expect(out).toMatchObject({ applied: true, dryRun: { ok: true } });
    const seen = fake.auth.impersonated.slice(before);
    expect(seen).toHaveLength(2); // the dry run, then the apply
    for (const r of seen) expect(r).toMatchObject({ user: 'bob', groups: ['shop-team', 'system:authenticated'], method: 'PATCH' });
  });

  it("alice's apply to shop is refused by the cluster, with its Forbidden message, and nothing is written", async () => {
    const applier = new KubeApplier(() => kubeConfigFor(fake.url));
    const out = await applier.apply([vs('shop')], { user: 'alice', groups: ['system:authenticated'] });
    expect(out.applied).toBe(false);
    expect(out.dryRun).toEqual({ ok: false });
    expect(out.items[0]?.message).toMatch(
      /403: .*User "alice" cannot patch resource "virtualservices" in API group "networking.istio.io" in the namespace "shop"/,
    );
  });
});
