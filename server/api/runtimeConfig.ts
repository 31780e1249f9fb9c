// MESHSCOPE_CONFIG: how `meshscope serve` tells the Next process what to load (JSON in one env var).
import { z } from 'zod';

export const RuntimeConfigSchema = z
  .object({
    config: z.array(z.string().min(1)).optional(),
    /** Files/demo: the namespace of objects that name none. */
    namespace: z.string().min(1).optional(),
    kubeconfig: z.string().min(1).optional(),
    /** Kube: a context of the kubeconfig (alone: of $KUBECONFIG or ~/.kube/config). */
    context: z.string().min(1).optional(),
    inCluster: z.boolean().optional(),
    /** Kube: watch only these namespaces (users without cluster-wide read). */
    namespaces: z.array(z.string().min(1)).optional(),
    xdsPort: z.number().int().min(0).max(65535).optional(),
    /** The IP address HTTP and ADS bind (DESIGN.md §3 `--address`); loopback when unset. */
    address: z.string().min(1).optional(),
    /** Extra `Host` names the HTTP server answers (`--allowed-host`, DNS-rebinding defence). */
    allowedHosts: z.array(z.string().min(1)).optional(),
    /** The bearer token protecting UI and API (`--auth-token-file` or MESHSCOPE_AUTH_TOKEN). */
    authToken: z.string().min(1).optional(),
    /** `serve --auth`: how users sign in (server/auth/settings.ts); absent = none. */
    auth: z.enum(['none', 'token', 'header', 'openid']).optional(),
    /** `--auth-header-trusted-cidrs`: the peers allowed to set the user headers (header mode). */
    authHeaderTrustedCidrs: z.array(z.string().min(1)).optional(),
    /** `--auth-header-user` / `--auth-header-groups` (header mode). */
    authHeaderUser: z.string().min(1).optional(),
    authHeaderGroups: z.string().min(1).optional(),
    /** `--openid-issuer`, `--openid-client-id`, `--openid-client-secret-file` (openid mode). */
    openidIssuer: z.string().url().optional(),
    openidClientId: z.string().min(1).optional(),
    openidClientSecretFile: z.string().min(1).optional(),
    /** `--audit-log FILE`: applies and resets as JSON lines (also on stdout). */
    auditLog: z.string().min(1).optional(),
    /** Request body limit in bytes (MESHSCOPE_MAX_BODY_BYTES; default DEFAULT_MAX_BODY_BYTES). */
    maxBodyBytes: z.number().int().min(1).optional(),
    /** `serve --allow-apply`: the sandbox may apply drafts to a cluster source. */
    allowApply: z.boolean().optional(),
    /** `serve --auth-token-file F`: the bearer token write requests (sandbox apply) must carry. */
    authTokenFile: z.string().min(1).optional(),
    /** `serve --mesh-config FILE`: the mesh config (replaces the ConfigMap istio-system/istio). */
    meshConfig: z.string().min(1).optional(),
    /** `serve --bug-report FILE|DIR`: an istioctl bug-report or must-gather (cluster objects + pods' dumps). */
    bugReport: z.string().min(1).optional(),
    /** `serve --ambient`: istiod runs with the ambient profile (kube: also on when the cluster says so). */
    ambient: z.boolean().optional(),
    /** `serve --contracts FILE`: routing contracts run on every live snapshot. */
    contracts: z.string().min(1).optional(),
    /** `serve --live-config`: read pods' Envoy config dumps through the API server's port-forward (kube mode). */
    liveConfig: z.boolean().optional(),
    /** `--proxy-admin-port`: Envoy's admin port in the pods (default 15000). */
    proxyAdminPort: z.number().int().min(1).max(65535).optional(),
    /** `serve --prometheus URL` (env MESHSCOPE_PROMETHEUS_URL): where observed traffic comes from (docs/prometheus.md). */
    prometheus: z
      .string()
      .url()
      .regex(/^https?:\/\//, 'an http:// or https:// URL')
      .optional(),
    /** The demo data plane (server/demo): pod servers on the pods' loopback IPs and xDS client workloads. */
    demoTraffic: z.boolean().optional(),
    /** Calls per second per demo client (default 50). */
    demoRate: z.number().int().min(0).max(200).optional(),
    /** The embedded demo's loopback base (`127.0.N`; its pods are `127.0.N.x`), default 127.0.1. */
    demoBase: z
      .string()
      .regex(/^127\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)$/, 'a loopback base 127.A.B')
      .optional(),
  })
  .strict();

export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

export const ENV_VAR = 'MESHSCOPE_CONFIG';

/** Loopback: what HTTP and ADS bind unless `--address` says otherwise (DESIGN.md §6). */
export const DEFAULT_ADDRESS = '127.0.0.1';

/** 8 MiB: the largest request body any route reads (413 beyond). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** `127.0.0.1:15010`, `[::1]:15010`. */
export const hostPort = (host: string, port: number | string): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

export const bindAddress = (c: RuntimeConfig): string => c.address ?? DEFAULT_ADDRESS;
export const maxBodyBytes = (c: RuntimeConfig): number => c.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

/** Parses the env value; a bad value is reported and the demo mesh is used instead (never throws). */
export function parseRuntimeConfig(raw: string | undefined): { config: RuntimeConfig; error?: string } {
  if (raw === undefined || raw.trim() === '') return { config: {} };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return { config: {}, error: `${ENV_VAR} is not JSON: ${(e as Error).message}` };
  }
  const r = RuntimeConfigSchema.safeParse(json);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { config: {}, error: `${ENV_VAR} is invalid: ${issues}` };
  }
  return { config: r.data };
}

/** What the runtime will load: explicit files, a cluster, or the embedded demo. */
export function sourceMode(c: RuntimeConfig): 'files' | 'kube' | 'demo' {
  if (c.config?.length || c.bugReport) return 'files';
  if (c.kubeconfig || c.context || c.inCluster) return 'kube';
  return 'demo';
}
