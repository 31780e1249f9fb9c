// Issue #26 §2–3: every apply and reset is audited (who, which objects, dry run and result); with sign-in
// the signed-in user applies as itself and no shared token is asked for.
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../auth/audit';
import { AuditLog } from '../auth/audit';
import type { DraftEdit } from '../sandbox/types';
import type { ActingUser, Applier, ApplyOutcome } from './apply/types';
import { applySandbox, resetSandbox, type ApplyContext } from './sandboxApply';

const DRAFT =
  'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: cart, namespace: shop}\nspec: {hosts: [cart], http: [{route: [{destination: {host: cart}}]}]}\n';

/** A cluster-like applier that records who it was asked to act as (the impersonation itself: server/auth/access.test.ts). */
class RecordingApplier implements Applier {
  readonly mode = 'kube' as const;
  seen: (ActingUser | undefined)[] = [];
  constructor(private readonly allow: boolean) {}
  async plan(edits: readonly DraftEdit[], as?: ActingUser): Promise<ApplyOutcome> {
    this.seen.push(as);
    return {
      mode: 'kube',
      applied: false,
      items: edits.map(() => ({ op: 'put', object: 'VirtualService shop/cart', ok: this.allow })),
      dryRun: { ok: this.allow },
    };
  }
  async apply(edits: readonly DraftEdit[], as?: ActingUser): Promise<ApplyOutcome> {
    const dry = await this.plan(edits, as);
    return this.allow ? { ...dry, applied: true } : { ...dry, message: 'server-side dry run failed: nothing applied' };
  }
  async reset(): Promise<void> {}
}

function ctxWith(applier: Applier, signIn: boolean, entries: AuditEntry[]): ApplyContext {
  return { applier, allowApply: true, token: 'shared', signIn, audit: (e) => entries.push({ time: 't', ...e }) };
}

describe('applies with sign-in (issue #26)', () => {
  it('the signed-in user applies as itself without the shared token; the apply is audited with the user and objects', async () => {
    const entries: AuditEntry[] = [];
    const applier = new RecordingApplier(true);
    const bob = { user: 'bob', groups: ['shop-team'] };
    const r = await applySandbox(ctxWith(applier, true, entries), null, { draft: DRAFT, confirm: true }, bob);
    expect(r.status).toBe(200);
    expect(applier.seen).toEqual([bob]);
    expect(entries).toEqual([
      {
        time: 't',
        user: 'bob',
        groups: ['shop-team'],
        action: 'apply',
        objects: [{ kind: 'VirtualService', namespace: 'shop', name: 'cart' }],
        dryRun: { ok: true },
        result: 'applied',
      },
    ]);
  });

  it('a refused apply is audited as such; a plan (no confirm) is not an apply and is not audited', async () => {
    const entries: AuditEntry[] = [];
    const ctx = ctxWith(new RecordingApplier(false), true, entries);
    await applySandbox(ctx, null, { draft: DRAFT }, { user: 'alice', groups: [] });
    expect(entries).toEqual([]);
    await applySandbox(ctx, null, { draft: DRAFT, confirm: true }, { user: 'alice', groups: [] });
    expect(entries[0]).toMatchObject({ user: 'alice', result: 'dry-run failed', dryRun: { ok: false } });
  });

  it('with sign-in a caller without a session is 401; without sign-in the shared token still rules', async () => {
    const entries: AuditEntry[] = [];
    expect((await applySandbox(ctxWith(new RecordingApplier(true), true, entries), 'Bearer shared', { draft: DRAFT })).status).toBe(401);
    expect((await applySandbox(ctxWith(new RecordingApplier(true), false, entries), null, { draft: DRAFT })).status).toBe(401);
    expect((await applySandbox(ctxWith(new RecordingApplier(true), false, entries), 'Bearer shared', { draft: DRAFT })).status).toBe(200);
  });

  it('resets are audited too', async () => {
    const entries: AuditEntry[] = [];
    await resetSandbox(ctxWith(new RecordingApplier(true), true, entries), null, { user: 'bob', groups: [] });
    expect(entries).toMatchObject([{ user: 'bob', action: 'reset', result: 'applied' }]);
  });
});

describe('the audit log', () => {
  it('writes one JSON line per entry, without tokens, and lists the entries a viewer may see', async () => {
    const lines: string[] = [];
    const log = new AuditLog(undefined, (l) => lines.push(l));
    const e = (ns: string): AuditEntry => ({
      time: 't',
      user: 'u',
      groups: [],
      action: 'apply',
      objects: [{ kind: 'VirtualService', namespace: ns, name: 'x' }],
      dryRun: { ok: true },
      result: 'applied',
    });
    log.record(e('shop'));
    log.record(e('catalog'));
    expect(lines.map((l) => JSON.parse(l).objects[0].namespace)).toEqual(['shop', 'catalog']);
    expect(log.list((ns) => ns === 'shop').map((x) => x.objects[0]?.namespace)).toEqual(['shop']);
  });
});
