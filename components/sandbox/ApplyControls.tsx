'use client';
// Apply the draft to the source it was drafted over, or reset the demo (issue #9 §4). Every call carries
// the bearer token `meshscope serve` printed (asked once, kept for this browser tab). Apply is two steps:
// the plan (for a cluster, with its server-side dry run) and then, after a look at it, the real apply.
import { useState } from 'react';
import { useApply } from '@/components/data/useSandbox';
import { useInputErrors } from '@/components/data/useProxies';
import type { ApplyOutcome } from '@/server/api/contract';

const TOKEN_KEY = 'meshscope.applyToken';

function storedToken(): string | undefined {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function ApplyControls({ text }: { text: string }) {
  const sources = useInputErrors().data?.sources ?? [];
  const kinds = new Set(sources.map((s) => s.kind));
  const target = kinds.has('kube') ? 'the cluster' : kinds.has('demo') ? 'the demo mesh' : 'the watched files';
  const { apply, reset } = useApply();
  const [plan, setPlan] = useState<ApplyOutcome>();
  const [msg, setMsg] = useState<{ ok: boolean; text: string }>();

  const token = (): string | undefined => {
    const t = storedToken() ?? window.prompt('Apply token (meshscope serve printed it at start)')?.trim();
    if (t) window.sessionStorage.setItem(TOKEN_KEY, t);
    return t || undefined;
  };
  const failed = (e: unknown) => {
    const err = e as Error & { status?: number };
    if (err.status === 401) window.sessionStorage.removeItem(TOKEN_KEY);
    setMsg({ ok: false, text: err.message });
  };
  const preview = async () => {
    const t = token();
    if (!t) return;
    setMsg(undefined);
    try {
      setPlan(await apply.mutateAsync({ draft: text, token: t, confirm: false }));
    } catch (e) {
      failed(e);
    }
  };
  const confirm = async () => {
    const t = token();
    if (!t) return;
    try {
      const r = await apply.mutateAsync({ draft: text, token: t, confirm: true });
      setPlan(undefined);
      setMsg({
        ok: r.applied,
        text:
          r.message ?? (r.applied ? `applied ${r.items.length} object${r.items.length === 1 ? '' : 's'} to ${target}` : 'nothing applied'),
      });
    } catch (e) {
      failed(e);
    }
  };
  const doReset = async () => {
    const t = token();
    if (!t || !window.confirm('Reset the demo mesh to what it embeds?')) return;
    try {
      await reset.mutateAsync({ token: t });
      setMsg({ ok: true, text: 'demo mesh reset' });
    } catch (e) {
      failed(e);
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={() => void preview()}
        disabled={apply.isPending || !text.trim()}
        data-testid="apply"
        title={`Apply this draft to ${target}`}
      >
        Apply…
      </button>
      {kinds.has('demo') ? (
        <button type="button" onClick={() => void doReset()} disabled={reset.isPending} data-testid="demo-reset">
          Reset demo
        </button>
      ) : null}
      {msg ? (
        <span className={`small ${msg.ok ? 'sb-pass' : 'error-text'}`} data-testid="apply-message">
          {msg.text}
        </span>
      ) : null}
      {plan ? (
        <div className="sb-plan" data-testid="apply-plan">
          <strong>Apply to {target}?</strong>{' '}
          {plan.dryRun ? (
            <span className={plan.dryRun.ok ? 'sb-pass' : 'sb-fail'}>server-side dry run {plan.dryRun.ok ? 'passed' : 'failed'}</span>
          ) : null}
          <ul>
            {plan.items.map((i) => (
              <li key={`${i.op}/${i.object}`} className="mono small">
                {i.op === 'delete' ? 'delete' : 'put'} {i.object}
                {i.file ? <span className="muted"> → {i.file}</span> : null}
                {i.message ? <span className={i.ok === false ? 'error-text' : 'muted'}> · {i.message}</span> : null}
              </li>
            ))}
          </ul>
          {plan.message ? <p className="small muted">{plan.message}</p> : null}
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={apply.isPending || plan.dryRun?.ok === false}
            data-testid="apply-confirm"
          >
            Apply now
          </button>{' '}
          <button type="button" onClick={() => setPlan(undefined)}>
            Cancel
          </button>
        </div>
      ) : null}
    </>
  );
}
