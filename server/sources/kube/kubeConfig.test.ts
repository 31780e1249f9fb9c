// Kubeconfig resolution follows kubectl's precedence (client-go clientcmd loading rules): an explicit
// --kubeconfig, else $KUBECONFIG (files merged, first file's current-context wins), else
// ~/.kube/config, else the pod's service account (rest.InClusterConfig: KUBERNETES_SERVICE_HOST/PORT,
// token + ca.crt under /var/run/secrets/kubernetes.io/serviceaccount); --context picks a context.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubeSource } from './kubeSource';
import { getJson } from './http';
import { resolveKubeConfig, SERVICE_ACCOUNT_DIR } from './kubeConfig';
import { RecordingSink } from './testing/recordingSink';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'meshscope-kc-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function kubeconfigFile(name: string, contexts: string[], current: string): string {
  const file = join(dir, name);
  const clusters = contexts.map((c, i) => `- name: ${c}\n  cluster:\n    server: https://${c}.example:${6443 + i}`).join('\n');
  const ctxs = contexts.map((c) => `- name: ${c}\n  context:\n    cluster: ${c}\n    user: u-${c}`).join('\n');
  const users = contexts.map((c) => `- name: u-${c}\n  user:\n    token: t-${c}`).join('\n');
  writeFileSync(
    file,
    `apiVersion: v1\nkind: Config\nclusters:\n${clusters}\ncontexts:\n${ctxs}\nusers:\n${users}\ncurrent-context: ${current}\n`,
  );
  return file;
}

function serviceAccount(): string {
  const sa = join(dir, 'root', SERVICE_ACCOUNT_DIR);
  mkdirSync(sa, { recursive: true });
  writeFileSync(join(sa, 'token'), 'sa-token');
  writeFileSync(join(sa, 'ca.crt'), 'not-a-real-ca');
  writeFileSync(join(sa, 'namespace'), 'meshscope\n');
  return join(dir, 'root');
}

const noEnv = () => ({ home: join(dir, 'nohome') });

describe('resolveKubeConfig', () => {
  it('explicit file, its current-context by default, --context to pick another', () => {
    const f = kubeconfigFile('kc', ['prod', 'staging'], 'prod');
    expect(resolveKubeConfig({ kubeconfig: f }, noEnv()).kc.getCurrentCluster()?.server).toBe('https://prod.example:6443');
    const r = resolveKubeConfig({ kubeconfig: f, context: 'staging' }, noEnv());
    expect(r.kc.getCurrentCluster()?.server).toBe('https://staging.example:6444');
    expect(r.from).toBe(`file ${f}`);
  });

  it('an unknown --context is an error naming the known ones', () => {
    const f = kubeconfigFile('kc', ['prod'], 'prod');
    expect(() => resolveKubeConfig({ kubeconfig: f, context: 'nope' }, noEnv())).toThrow(/context "nope" not found.*prod/);
  });

  it('a missing explicit file is an error', () => {
    expect(() => resolveKubeConfig({ kubeconfig: join(dir, 'missing') }, noEnv())).toThrow(/does not exist/);
  });

  it('$KUBECONFIG merges its files; the first file decides the current context', () => {
    const a = kubeconfigFile('a', ['alpha'], 'alpha');
    const b = kubeconfigFile('b', ['beta'], 'beta');
    const r = resolveKubeConfig({}, { ...noEnv(), KUBECONFIG: `${a}:${b}` });
    expect(r.from).toBe('KUBECONFIG');
    expect(r.kc.getCurrentContext()).toBe('alpha');
    expect(
      r.kc
        .getContexts()
        .map((c) => c.name)
        .sort(),
    ).toEqual(['alpha', 'beta']);
    expect(resolveKubeConfig({ context: 'beta' }, { ...noEnv(), KUBECONFIG: `${a}:${b}` }).kc.getCurrentCluster()?.server).toBe(
      'https://beta.example:6443',
    );
  });

  it('falls back to ~/.kube/config', () => {
    mkdirSync(join(dir, 'home', '.kube'), { recursive: true });
    const f = kubeconfigFile('home/.kube/config', ['dev'], 'dev');
    const r = resolveKubeConfig({}, { home: join(dir, 'home') });
    expect(r.from).toBe(`file ${f}`);
    expect(r.kc.getCurrentCluster()?.server).toBe('https://dev.example:6443');
  });

  it('auto-detects in-cluster from the service account when there is no kubeconfig', () => {
    const root = serviceAccount();
    const r = resolveKubeConfig({}, { ...noEnv(), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', rootPrefix: root });
    expect(r.from).toBe('in-cluster');
    expect(r.kc.getCurrentCluster()?.server).toBe('https://10.96.0.1:443');
    expect(r.kc.getCurrentCluster()?.caFile).toBe(join(root, SERVICE_ACCOUNT_DIR, 'ca.crt'));
    expect(r.kc.getCurrentUser()?.authProvider?.config?.tokenFile).toBe(join(root, SERVICE_ACCOUNT_DIR, 'token'));
    expect(r.kc.getContextObject(r.kc.getCurrentContext())?.namespace).toBe('meshscope');
  });

  it('an explicit kubeconfig wins over the service account; IPv6 hosts are bracketed in-cluster', () => {
    const root = serviceAccount();
    const f = kubeconfigFile('kc', ['prod'], 'prod');
    const env = { ...noEnv(), KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443', rootPrefix: root };
    expect(resolveKubeConfig({ kubeconfig: f }, env).from).toBe(`file ${f}`);
    expect(resolveKubeConfig({ inCluster: true }, env).kc.getCurrentCluster()?.server).toBe('https://[fd00::1]:443');
  });

  it('--in-cluster outside a pod, or no configuration at all, is a clear error', () => {
    expect(() => resolveKubeConfig({ inCluster: true }, noEnv())).toThrow(/--in-cluster: not running in a pod/);
    expect(() => resolveKubeConfig({}, noEnv())).toThrow(/no kubeconfig/);
  });
});

describe('plain http:// API servers (kubectl proxy)', () => {
  // kubectl (client-go rest.Config) uses an http:// server as it is; client-node refuses one without
  // insecure-skip-tls-verify, so resolveKubeConfig marks plaintext clusters (nothing to verify there).
  it('a kubeconfig naming http://127.0.0.1:PORT reaches that server; https clusters keep TLS verification', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ kind: 'Status', message: `saw ${req.url}` }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const f = join(dir, 'proxy');
      writeFileSync(
        f,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          `- name: proxy\n  cluster:\n    server: http://127.0.0.1:${port}`,
          '- name: tls\n  cluster:\n    server: https://tls.example:6443',
          'contexts:',
          '- name: proxy\n  context:\n    cluster: proxy\n    user: u',
          '- name: tls\n  context:\n    cluster: tls\n    user: u',
          'users:\n- name: u\n  user: {}',
          'current-context: proxy',
          '',
        ].join('\n'),
      );
      const { kc } = resolveKubeConfig({ kubeconfig: f }, noEnv());
      expect(kc.getCluster('tls')?.skipTLSVerify).toBe(false);
      expect(await getJson(kc, '/api/v1/pods')).toEqual({ status: 200, body: { kind: 'Status', message: 'saw /api/v1/pods' } });
    } finally {
      server.close();
    }
  });
});

describe('KubeSource with an unusable kubeconfig', () => {
  it('start() rejects with the reason and reports a failing status', async () => {
    const sink = new RecordingSink();
    const src = new KubeSource('kube', { kubeconfig: join(dir, 'missing') });
    await expect(src.start(sink)).rejects.toThrow(/does not exist/);
    expect(sink.lastStatus).toMatchObject({ id: 'kube', kind: 'kube', state: 'failing' });
    expect(sink.lastStatus?.lastError).toMatch(/does not exist/);
    await src.stop();
  });
});
