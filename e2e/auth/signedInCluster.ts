// TEST-ONLY (Playwright webServer of the "auth" project): a loopback fake API server holding two namespaces —
// `default` (productpage, reviews) and `shop` (cart) — that answers TokenReview and SubjectAccessReview for
// two users, alice (lists pods in default) and bob (group shop-team: default and shop, and may write
// VirtualServices in shop), and `meshscope serve --kubeconfig … --auth token --allow-apply` against it.
// Usage: node --import tsx e2e/auth/signedInCluster.ts PORT XDS_PORT AUDIT_LOG. Stops both on SIGTERM/SIGINT.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { FakeApiServer } from '../../server/sources/kube/testing/fakeApiServer';
import { namespace, pod, service } from '../../server/sources/kube/testing/fixtures';

export const TOKENS = { alice: 'token-alice-e2e', bob: 'token-bob-e2e' } as const;

const [port, xdsPort, auditLog] = process.argv.slice(2);
if (!port || !xdsPort || !auditLog) throw new Error('usage: signedInCluster.ts PORT XDS_PORT AUDIT_LOG');

const fake = new FakeApiServer();
await fake.start();
for (const o of [
  namespace('default'),
  namespace('shop'),
  service('default', 'productpage'),
  service('default', 'reviews'),
  service('shop', 'cart'),
  pod('default', 'productpage-v1-1', 'productpage', '10.1.0.10'),
  pod('default', 'reviews-v1-1', 'reviews', '10.1.0.11'),
  pod('shop', 'cart-v1-1', 'cart', '10.1.0.20'),
])
  fake.create(o);
fake.auth.tokens.set(TOKENS.alice, { user: 'alice', groups: ['system:authenticated'] });
fake.auth.tokens.set(TOKENS.bob, { user: 'bob', groups: ['shop-team', 'system:authenticated'] });
fake.auth.grants.push(
  { subject: 'alice', verbs: ['list'], resources: ['pods'], namespaces: ['default'] },
  { subject: 'group:shop-team', verbs: ['list'], resources: ['pods'], namespaces: ['default', 'shop'] },
  { subject: 'group:shop-team', verbs: ['patch', 'create'], resources: ['virtualservices'], namespaces: ['shop'] },
);

const dir = mkdtempSync(join(tmpdir(), 'meshscope-e2e-auth-'));
const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(
  kubeconfig,
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'fake', cluster: { server: fake.url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'meshscope', user: { token: 'meshscope-sa-token' } }],
    contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'meshscope' } }],
    'current-context': 'fake',
  }),
);

const root = resolve(import.meta.dirname, '..', '..');
const child = spawn(
  process.execPath,
  [
    join(root, 'bin', 'meshscope.mjs'),
    'serve',
    '--kubeconfig',
    kubeconfig,
    '--auth',
    'token',
    '--allow-apply',
    '--audit-log',
    auditLog,
    '--port',
    port,
    '--xds-port',
    xdsPort,
  ],
  { cwd: root, stdio: 'inherit' },
);
const stop = async () => {
  child.kill('SIGTERM');
  await fake.stop().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
child.on('exit', (code) => {
  void fake.stop().finally(() => process.exit(code ?? 1));
});
