// Which cluster to talk to: an explicit kubeconfig file, $KUBECONFIG, ~/.kube/config, or the pod's
// service account (in-cluster), in that order; `context` then picks a context of the loaded file.
import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

export interface KubeConfigOptions {
  kubeconfig?: string;
  context?: string;
  inCluster?: boolean;
}

/** What the resolution reads from the environment; defaults to the real process environment. */
export interface KubeConfigEnv {
  KUBECONFIG?: string;
  KUBERNETES_SERVICE_HOST?: string;
  KUBERNETES_SERVICE_PORT?: string;
  home?: string;
  /** Filesystem prefix in front of /var/run/secrets/kubernetes.io/serviceaccount (tests). */
  rootPrefix?: string;
}

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface ResolvedKubeConfig {
  kc: KubeConfig;
  /** How it was found, for the status line: `file PATH`, `KUBECONFIG`, `in-cluster`... */
  from: string;
}

function defaultEnv(): KubeConfigEnv {
  return {
    KUBECONFIG: process.env.KUBECONFIG,
    KUBERNETES_SERVICE_HOST: process.env.KUBERNETES_SERVICE_HOST,
    KUBERNETES_SERVICE_PORT: process.env.KUBERNETES_SERVICE_PORT,
    home: homedir(),
  };
}

/** Like client-node's loadFromCluster, but reading `env` rather than process.env. */
function loadInCluster(kc: KubeConfig, env: KubeConfigEnv, saDir: string): void {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  const scheme = ['80', '8080', '8001'].includes(port) ? 'http' : 'https';
  const h = isIPv6(host) ? `[${host}]` : host;
  const nsFile = join(saDir, 'namespace');
  kc.loadFromOptions({
    clusters: [{ name: 'inCluster', server: `${scheme}://${h}:${port}`, caFile: join(saDir, 'ca.crt'), skipTLSVerify: false }],
    users: [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: join(saDir, 'token') } } }],
    contexts: [
      {
        name: 'inClusterContext',
        cluster: 'inCluster',
        user: 'inClusterUser',
        namespace: existsSync(nsFile) ? readFileSync(nsFile, 'utf8').trim() : undefined,
      },
    ],
    currentContext: 'inClusterContext',
  });
}

/**
 * Loads a KubeConfig. Throws an Error with a user-facing message when no usable configuration exists
 * or the requested context is unknown (bad configuration is a startup error, not a runtime one).
 */
export function resolveKubeConfig(opts: KubeConfigOptions, env: KubeConfigEnv = defaultEnv()): ResolvedKubeConfig {
  const kc = new KubeConfig();
  let from: string;
  const prefix = env.rootPrefix ?? '';
  const saDir = prefix + SERVICE_ACCOUNT_DIR;
  const inClusterAvailable = Boolean(env.KUBERNETES_SERVICE_HOST) && existsSync(join(saDir, 'token'));
  const defaultFile = env.home ? join(env.home, '.kube', 'config') : undefined;
  try {
    if (opts.inCluster) {
      if (!inClusterAvailable) {
        throw new Error(`--in-cluster: not running in a pod (KUBERNETES_SERVICE_HOST unset or no token in ${saDir})`);
      }
      loadInCluster(kc, env, saDir);
      from = 'in-cluster';
    } else if (opts.kubeconfig) {
      if (!existsSync(opts.kubeconfig)) throw new Error(`kubeconfig ${opts.kubeconfig} does not exist`);
      kc.loadFromFile(opts.kubeconfig);
      from = `file ${opts.kubeconfig}`;
    } else if (env.KUBECONFIG) {
      const files = env.KUBECONFIG.split(process.platform === 'win32' ? ';' : ':').filter(Boolean);
      const [first, ...rest] = files;
      if (!first || !existsSync(first)) throw new Error(`KUBECONFIG file ${first ?? ''} does not exist`);
      kc.loadFromFile(first);
      for (const f of rest) {
        if (!existsSync(f)) continue;
        const more = new KubeConfig();
        more.loadFromFile(f);
        kc.mergeConfig(more, true); // like kubectl: the first file's current-context wins
      }
      from = 'KUBECONFIG';
    } else if (defaultFile && existsSync(defaultFile)) {
      kc.loadFromFile(defaultFile);
      from = `file ${defaultFile}`;
    } else if (inClusterAvailable) {
      loadInCluster(kc, env, saDir);
      from = 'in-cluster';
    } else {
      throw new Error('no kubeconfig: pass --kubeconfig FILE, set KUBECONFIG, create ~/.kube/config or run in a pod');
    }
  } catch (err) {
    if (err instanceof Error && /^(--in-cluster|kubeconfig|KUBECONFIG|no kubeconfig)/.test(err.message)) throw err;
    throw new Error(`cannot load kubeconfig: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (opts.context) {
    if (!kc.getContextObject(opts.context)) {
      const known = kc
        .getContexts()
        .map((c) => c.name)
        .join(', ');
      throw new Error(`context "${opts.context}" not found in kubeconfig (known: ${known || 'none'})`);
    }
    kc.setCurrentContext(opts.context);
  }
  if (!kc.getCurrentCluster()) throw new Error('kubeconfig has no current context/cluster; pass --context');
  allowPlainHttp(kc);
  return { kc, from };
}

/**
 * kubectl talks to an `http://` server as it is (e.g. `kubectl proxy`'s http://127.0.0.1:8001), but
 * client-node refuses one unless the cluster says insecure-skip-tls-verify. Plain HTTP has no
 * certificate to verify, so mark exactly those clusters; https clusters are left untouched.
 */
function allowPlainHttp(kc: KubeConfig): void {
  if (!kc.clusters.some((c) => c.server.startsWith('http:') && !c.skipTLSVerify)) return;
  kc.loadFromOptions({
    clusters: kc.clusters.map((c) => (c.server.startsWith('http:') ? { ...c, skipTLSVerify: true } : c)),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
}
