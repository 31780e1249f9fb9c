// Which LiveSource a runtime holds: `serve --live-config` in kube mode reads pods through the API server's
// port-forward; otherwise none, and /live and /drift answer 404 naming the flag. (The bug-report /
// must-gather archive source of `serve --bug-report` plugs in here too.)
import type { KubeConfig } from '@kubernetes/client-node';
import { type PortForwardOptions, PortForwardLiveSource } from './portForwardSource';
import { LiveError, type LiveSource } from './types';

export { LiveError, isLiveError, type LiveDump, type LiveSource } from './types';

/** The 404 of /live and /drift when no source is configured (stage `config`). */
export const liveOff = (): LiveError =>
  new LiveError(
    404,
    'config',
    "reading a pod's own Envoy config is off: start `meshscope serve` on a cluster with --live-config (or open an archive with --bug-report)",
  );

/**
 * The runtime's LiveSource, or undefined. `kubeConfig` is called at most once, on the first fetch (the kube
 * source resolves the same configuration at start; a failure there is already a source status).
 */
export function makeLiveSource(
  config: { liveConfig?: boolean; proxyAdminPort?: number },
  mode: 'files' | 'kube' | 'demo',
  kubeConfig: () => KubeConfig,
  /** Limits other than the admin port (tests: a short timeout, no cache). */
  tuning: Omit<PortForwardOptions, 'adminPort'> = {},
): LiveSource | undefined {
  if (config.liveConfig !== true || mode !== 'kube') return undefined;
  let source: PortForwardLiveSource | undefined;
  return {
    fetch(proxyId, opts) {
      if (!source) {
        try {
          source = new PortForwardLiveSource(kubeConfig(), {
            ...tuning,
            ...(config.proxyAdminPort ? { adminPort: config.proxyAdminPort } : {}),
          });
        } catch (e) {
          return Promise.reject(new LiveError(502, 'portforward', `no usable kubeconfig: ${(e as Error).message}`));
        }
      }
      return source.fetch(proxyId, opts);
    },
  };
}
