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
    /** `serve --allow-apply`: the sandbox may apply drafts to a cluster source. */
    allowApply: z.boolean().optional(),
    /** `serve --auth-token-file F`: the bearer token write requests (sandbox apply) must carry. */
    authTokenFile: z.string().min(1).optional(),
    /** `serve --contracts FILE`: routing contracts run on every live snapshot. */
    contracts: z.string().min(1).optional(),
  })
  .strict();

export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

export const ENV_VAR = 'MESHSCOPE_CONFIG';

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
  if (c.config?.length) return 'files';
  if (c.kubeconfig || c.context || c.inCluster) return 'kube';
  return 'demo';
}
