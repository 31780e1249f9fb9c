// Apply on a cluster (`serve --allow-apply` only): Kubernetes server-side apply (field manager
// `meshscope`), always as a server-side dry run first (`dryRun: All`); the real apply runs only when every
// object passed it. Deletions are dry-run deletes, then deletes. RBAC write verbs for this live in the
// opt-in overlay deploy/overlays/apply, never in the default manifests. With sign-in (`serve --auth`), every
// call impersonates the signed-in user and its groups, so the cluster's RBAC for that user decides.
import { type KubeConfig, KubernetesObjectApi, type KubernetesObject, PatchStrategy } from '@kubernetes/client-node';
import type { DraftEdit } from '../../sandbox/types';
import { impersonatingObjectApi } from '../../auth/impersonation';
import { type ActingUser, type Applier, type ApplyItem, type ApplyOutcome, describeEdit } from './types';

export const FIELD_MANAGER = 'meshscope';

function objectOf(e: DraftEdit): KubernetesObject {
  if (e.op === 'put') return e.object as KubernetesObject;
  return {
    apiVersion: e.ref.apiVersion ?? 'networking.istio.io/v1',
    kind: e.ref.kind,
    metadata: { name: e.ref.name, namespace: e.ref.namespace },
  };
}

function errorText(e: unknown): string {
  const err = e as { body?: unknown; code?: number; message?: string };
  let body = err.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      // plain text
    }
  }
  const msg = (body as { message?: string } | undefined)?.message;
  return `${err.code ? `${err.code}: ` : ''}${msg ?? err.message ?? String(e)}`;
}

export class KubeApplier implements Applier {
  readonly mode = 'kube' as const;
  constructor(private readonly kubeConfig: () => KubeConfig) {}

  private async run(edits: readonly DraftEdit[], dryRun: boolean, as?: ActingUser): Promise<ApplyItem[]> {
    const kc = this.kubeConfig();
    const client = as ? impersonatingObjectApi(kc, as) : KubernetesObjectApi.makeApiClient(kc);
    const dr = dryRun ? 'All' : undefined;
    const items: ApplyItem[] = [];
    for (const e of edits) {
      const item: ApplyItem = { op: e.op, object: describeEdit(e) };
      try {
        if (e.op === 'put') await client.patch(objectOf(e), undefined, dr, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
        else await client.delete(objectOf(e), undefined, dr);
        items.push({ ...item, ok: true, message: dryRun ? 'server-side dry run passed' : 'applied' });
      } catch (err) {
        items.push({ ...item, ok: false, message: errorText(err) });
      }
    }
    return items;
  }

  async plan(edits: readonly DraftEdit[], as?: ActingUser): Promise<ApplyOutcome> {
    const items = await this.run(edits, true, as);
    const ok = items.every((i) => i.ok);
    return { mode: this.mode, applied: false, items, dryRun: { ok } };
  }

  async apply(edits: readonly DraftEdit[], as?: ActingUser): Promise<ApplyOutcome> {
    const dry = await this.plan(edits, as);
    if (!dry.dryRun?.ok) return { ...dry, message: 'server-side dry run failed: nothing applied' };
    const items = await this.run(edits, false, as);
    return { mode: this.mode, applied: items.every((i) => i.ok), items, dryRun: { ok: true } };
  }
}
