// Kubernetes clients that act as a signed-in user: every request carries `Impersonate-User` and one
// `Impersonate-Group` header per group (the API server reads the group header as a list of header lines,
// so the groups cannot be joined into one). Used for sandbox applies, so the user's own RBAC allows or
// refuses them; meshscope's ServiceAccount needs `impersonate` on users and groups (deploy/overlays/auth).
import {
  createConfiguration,
  type KubeConfig,
  KubernetesObjectApi,
  ResponseContext,
  ServerConfiguration,
  wrapHttpLibrary,
} from '@kubernetes/client-node';
import { type Dispatcher, fetch, Headers } from 'undici';

export interface Impersonate {
  user: string;
  groups: readonly string[];
}

function impersonatingHttp(as: Impersonate) {
  return wrapHttpLibrary({
    async send(request) {
      const headers = new Headers();
      for (const [k, v] of Object.entries(request.getHeaders())) {
        if (/^impersonate-/i.test(k)) continue;
        headers.set(k, v);
      }
      headers.set('Impersonate-User', as.user);
      for (const g of as.groups) headers.append('Impersonate-Group', g);
      const resp = await fetch(request.getUrl(), {
        method: request.getHttpMethod().toString(),
        body: request.getBody() as string | undefined,
        headers,
        ...(request.getSignal() ? { signal: request.getSignal() } : {}),
        ...(request.getDispatcher() ? { dispatcher: request.getDispatcher() as Dispatcher } : {}),
      });
      const out: Record<string, string> = {};
      resp.headers.forEach((value, name) => {
        out[name] = value;
      });
      const text = await resp.text();
      return new ResponseContext(resp.status, out, {
        text: async () => text,
        binary: async () => Buffer.from(text),
        stream: () => null,
      });
    },
  });
}

/** A KubernetesObjectApi whose every call impersonates `as`. */
export function impersonatingObjectApi(kc: KubeConfig, as: Impersonate): KubernetesObjectApi {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('no active cluster in the kubeconfig');
  const config = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    httpApi: impersonatingHttp(as),
  });
  return new ImpersonatingObjectApi(config, kc);
}

class ImpersonatingObjectApi extends KubernetesObjectApi {
  constructor(config: ConstructorParameters<typeof KubernetesObjectApi>[0], kc: KubeConfig) {
    super(config);
    this.setDefaultNamespace(kc);
  }
}
