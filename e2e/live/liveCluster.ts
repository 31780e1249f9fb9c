// The "live" project's server (TEST-ONLY, run by playwright.config.ts as a webServer with `node --import tsx`):
// the in-repo fake API server holding Istio's Bookinfo (server/acceptance/kubeBookinfo.ts) with a WebSocket
// port-forward to one loopback stand-in Envoy admin per pod, and `meshscope serve --kubeconfig … --live-config`
// as a child against it. Once serve answers, each admin serves an Envoy-like dump of meshscope's own config
// for its pod (server/live/testing/envoyDumps.ts): in sync, except productpage (the five injected
// differences, a NACKed listener among them); ratings' port-forward is forbidden (403).
//   node --import tsx e2e/live/liveCluster.ts --port P --xds-port X
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOKINFO_NS, bookinfoCluster, writeKubeconfig } from '../../server/acceptance/kubeBookinfo';
import { drifted, envoyLike } from '../../server/live/testing/envoyDumps';
import { FakeApiServer } from '../../server/sources/kube/testing/fakeApiServer';
import { FakeEnvoyAdmin } from '../../server/sources/kube/testing/fakeEnvoyAdmin';
import { fixturesPath } from '../../scripts/fixtures.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (!v) throw new Error(`liveCluster: --${name} is required`);
  return v;
};
const port = arg('port');
const xdsPort = arg('xds-port');
const CONTEXT = 'e2e-live';

const fake = new FakeApiServer();
await fake.start();
const src = join(fixturesPath(), 'istio-bookinfo');
const cluster = bookinfoCluster([
  join(src, 'platform', 'bookinfo.yaml'),
  join(src, 'networking', 'destination-rule-all.yaml'),
  join(src, 'networking', 'virtual-service-reviews-80-20.yaml'),
]);
for (const o of cluster.objects) fake.create(o);
const admins = new Map<string, FakeEnvoyAdmin>();
for (const p of cluster.pods) {
  const a = new FakeEnvoyAdmin();
  await a.start();
  admins.set(p.name, a);
  if (p.name.startsWith('ratings-')) fake.portForward.deny(BOOKINFO_NS, p.name);
  else fake.portForward.forward(BOOKINFO_NS, p.name, 15000, a.port);
}
const dir = mkdtempSync(join(tmpdir(), 'meshscope-e2e-live-'));
const kubeconfig = join(dir, 'kubeconfig');
writeKubeconfig(kubeconfig, fake.url, CONTEXT);

const child = spawn(
  process.execPath,
  [
    join(ROOT, 'bin', 'meshscope.mjs'),
    'serve',
    '--port',
    port,
    '--xds-port',
    xdsPort,
    '--kubeconfig',
    kubeconfig,
    '--context',
    CONTEXT,
    '--live-config',
  ],
  { stdio: 'inherit', cwd: ROOT },
);
const stop = async (code: number) => {
  child.kill('SIGTERM');
  for (const a of admins.values()) await a.stop();
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
};
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
child.on('exit', (code) => void stop(code ?? 1));

// Once serve has the pods, give each admin an Envoy-like dump of meshscope's own config for it.
const base = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    const list = (await (await fetch(`${base}/api/proxies`)).json()) as { proxies: { id: string }[] };
    if (list.proxies.length >= cluster.pods.length) break;
  } catch {
    // not up yet (the first serve builds the app)
  }
  await new Promise((r) => setTimeout(r, 500));
}
for (const p of cluster.pods) {
  const id = `${p.name}.${BOOKINFO_NS}`;
  const detail = (await (await fetch(`${base}/api/proxies/${encodeURIComponent(id)}?tables=0`)).json()) as {
    configDump: Record<string, any>;
  };
  const a = admins.get(p.name) as FakeEnvoyAdmin;
  const node = `sidecar~${p.ip}~${id}~${BOOKINFO_NS}.svc.cluster.local`;
  a.dump = p.name.startsWith('productpage-') ? drifted(detail.configDump) : envoyLike(detail.configDump, node);
}
console.log('liveCluster: every pod admin serves its dump');
