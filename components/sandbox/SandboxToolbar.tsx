'use client';
// The sandbox's actions: new object from a template, load a live object, export (YAML file, `kubectl
// apply -f -`), copy the link, and — when the server allows it — apply the draft or reset the demo.
import { useState } from 'react';
import type { LiveConfig } from '@/components/data/sandbox';
import { useApply, useApplyCapability } from '@/components/data/useSandbox';
import { kubectlCommand } from './model/exportDraft';
import { TEMPLATE_KINDS, TEMPLATES, type TemplateKind } from './model/templates';

interface Props {
  text: string;
  live: readonly LiveConfig[] | undefined;
  /** Adds a document to the draft (or replaces an empty draft). */
  onAdd: (yaml: string) => void;
  onLoadLive: (c: LiveConfig) => void;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function ApplyButtons({ text }: { text: string }) {
  const cap = useApplyCapability();
  const { apply, reset } = useApply();
  const [msg, setMsg] = useState<string>();
  if (!cap.data) return null;
  if (!cap.data.allowed)
    return (
      <span className="muted small" data-testid="apply-off" title={cap.data.reason}>
        apply off{cap.data.reason ? `: ${cap.data.reason}` : ''}
      </span>
    );
  const token = () => (cap.data?.tokenRequired ? (window.prompt('Apply token (printed by `meshscope serve`)') ?? undefined) : undefined);
  const run = async (what: 'apply' | 'reset') => {
    const where = cap.data?.source === 'cluster' ? 'the cluster' : cap.data?.source === 'files' ? 'the watched files' : 'the demo mesh';
    if (what === 'apply' && !window.confirm(`Apply this draft to ${where}?`)) return;
    const t = token();
    if (cap.data?.tokenRequired && !t) return;
    try {
      const r =
        what === 'apply'
          ? await apply.mutateAsync({ draft: text, ...(t ? { token: t } : {}) })
          : await reset.mutateAsync(t ? { token: t } : {});
      setMsg(r.message ?? (what === 'apply' ? `applied ${r.applied?.length ?? 0} objects` : 'demo reset'));
    } catch (e) {
      setMsg((e as Error).message);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void run('apply')} disabled={apply.isPending || !text.trim()} data-testid="apply">
        Apply…
      </button>
      {cap.data.source === 'demo' ? (
        <button type="button" onClick={() => void run('reset')} disabled={reset.isPending} data-testid="demo-reset">
          Reset demo
        </button>
      ) : null}
      {msg ? <span className="small muted">{msg}</span> : null}
    </>
  );
}

export function SandboxToolbar({ text, live, onAdd, onLoadLive }: Props) {
  const [showKubectl, setShowKubectl] = useState(false);
  const [copied, setCopied] = useState<string>();
  const copy = (what: string, value: string) =>
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(what),
      () => setCopied(undefined),
    );
  return (
    <>
      <div className="toolbar sb-toolbar">
        <select
          aria-label="New object"
          value=""
          data-testid="sandbox-new"
          onChange={(e) => e.target.value && onAdd(TEMPLATES[e.target.value as TemplateKind])}
        >
          <option value="">New…</option>
          {TEMPLATE_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <select
          aria-label="Load a live object"
          value=""
          data-testid="sandbox-load-live"
          onChange={(e) => {
            const c = live?.[Number(e.target.value)];
            if (c) onLoadLive(c);
          }}
        >
          <option value="">Load live object… ({live?.length ?? 0})</option>
          {live?.map((c, i) => (
            <option key={`${c.kind}/${c.metadata.namespace}/${c.metadata.name}`} value={i}>
              {c.kind} {c.metadata.namespace}/{c.metadata.name}
            </option>
          ))}
        </select>
        <span className="sb-sep" />
        <button type="button" onClick={() => download('draft.yaml', text)} disabled={!text.trim()} data-testid="export-yaml">
          Download YAML
        </button>
        <button
          type="button"
          onClick={() => setShowKubectl((s) => !s)}
          aria-expanded={showKubectl}
          disabled={!text.trim()}
          data-testid="export-kubectl"
        >
          kubectl apply
        </button>
        <button type="button" onClick={() => copy('link', window.location.href)} data-testid="copy-link">
          Copy link
        </button>
        {copied ? <span className="small muted">{copied} copied</span> : null}
        <span className="sb-sep" />
        <ApplyButtons text={text} />
      </div>
      {showKubectl ? (
        <div className="sb-kubectl">
          <pre className="mono" data-testid="kubectl-command">
            {kubectlCommand(text)}
          </pre>
          <button type="button" onClick={() => copy('command', kubectlCommand(text))}>
            Copy command
          </button>
        </div>
      ) : null}
    </>
  );
}
