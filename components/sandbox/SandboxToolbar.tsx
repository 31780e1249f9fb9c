'use client';
// The sandbox's actions: new object from a template, load a live object, export (YAML file, `kubectl
// apply -f -`), copy the link, and — when the server allows it — apply the draft or reset the demo.
import { useState } from 'react';
import type { LiveConfig } from '@/components/data/sandbox';
import { ApplyControls } from './ApplyControls';
import { kubectlCommand } from './model/exportDraft';
import { TEMPLATE_KINDS, TEMPLATES, type TemplateKind } from './model/templates';
import { downloadText } from './download';

interface Props {
  text: string;
  live: readonly LiveConfig[] | undefined;
  /** Adds a document to the draft (or replaces an empty draft). */
  onAdd: (yaml: string) => void;
  onLoadLive: (c: LiveConfig) => void;
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
        <button type="button" onClick={() => downloadText('draft.yaml', text)} disabled={!text.trim()} data-testid="export-yaml">
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
        <ApplyControls text={text} />
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
