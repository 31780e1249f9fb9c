'use client';
// /sandbox: edit a draft (YAML editor + form helpers) over the live mesh and see, before anything is
// applied, which proxies change, each one's semantic diff and route graph, what it produces, where
// requests go, and the analyzers' findings. The draft, checks, chosen proxy and document live in the URL.
import dynamic from 'next/dynamic';
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EvaluateBody, LiveConfig } from '@/components/data/sandbox';
import { useProxies } from '@/components/data/useProxies';
import { useDebounced, useLiveConfigs, useLiveObject, useSandboxEvaluate } from '@/components/data/useSandbox';
import type { EvaluateResult, SandboxProblem } from '@/server/sandbox/types';
import type { EditorApi, EditorProblem } from './DraftEditor';
import { FormHelpers } from './FormHelpers';
import { draftDocs, parseDraft } from './model/draftDocs';
import { appendDoc, liveObjectYaml } from './model/exportDraft';
import { readForm } from './model/form';
import { draftHosts, knownSubsets } from './model/hosts';
import { stateFromParams, stateToParams } from './model/urlState';
import { BlastRadius } from './results/BlastRadius';
import { ChecksPanel } from './results/ChecksPanel';
import { ProblemsPanel } from './results/ProblemsPanel';
import { ProxyDiffPanel } from './results/ProxyDiffPanel';
import { SandboxToolbar } from './SandboxToolbar';
import { useStoredContracts } from './useStoredContracts';
import './sandbox.css';

const DraftEditor = dynamic(() => import('./DraftEditor'), {
  ssr: false,
  loading: () => (
    <div className="sb-editor loading" data-testid="sandbox-editor-loading">
      Loading the editor…
    </div>
  ),
});

/** A result worth showing: the server could read at least one object (else keep the previous one). */
const usable = (r: EvaluateResult) => r.edits.length > 0 || !r.errors.some((e) => e.level === 'error');

/** `ambientPods`: under the ambient profile, the ambient pods the viewer sees (check sources without a proxy). */
export function SandboxView({ ambientPods = [] }: { ambientPods?: readonly string[] } = {}) {
  const params = useSearchParams();
  const [initial] = useState(() => stateFromParams(new URLSearchParams(params?.toString() ?? '')));
  const [text, setText] = useState(initial.draft);
  const [checks, setChecks] = useState(initial.checks);
  const [proxy, setProxy] = useState(initial.proxy);
  const [doc, setDoc] = useState(initial.doc ?? 0);
  const editor = useRef<EditorApi | undefined>(undefined);
  const [contracts, setContracts] = useStoredContracts();

  // ?load=/apis/…: a live object opened from elsewhere ("Load into sandbox"), unless the URL has a draft.
  const load = initial.draft ? undefined : (params?.get('load') ?? undefined);
  const loaded = useLiveObject(load);
  const loadedOnce = useRef(false);
  useEffect(() => {
    if (!loaded.data || loadedOnce.current) return;
    loadedOnce.current = true;
    setText(liveObjectYaml(loaded.data.object));
    setDoc(0);
  }, [loaded.data]);

  // URL: the draft and the rest, a moment after the last change.
  const urlState = useMemo(() => ({ draft: text, checks, ...(proxy ? { proxy } : {}), doc }), [text, checks, proxy, doc]);
  const debouncedUrl = useDebounced(urlState, 400);
  useEffect(() => {
    if (load && !debouncedUrl.draft) return; // still loading: keep ?load=
    const q = stateToParams(debouncedUrl).toString();
    window.history.replaceState(window.history.state, '', q ? `?${q}` : window.location.pathname);
  }, [debouncedUrl, load]);

  const parsed = useMemo(() => parseDraft(text), [text]);
  const docs = useMemo(() => draftDocs(text, parsed), [text, parsed]);
  const docIndex = Math.min(doc, Math.max(0, docs.length - 1));
  const form = useMemo(() => readForm(text, docIndex), [text, docIndex]);
  const hosts = useMemo(() => draftHosts(parsed), [parsed]);
  const live = useLiveConfigs();
  const subsetsFor = useCallback((host: string) => knownSubsets(host, live.data ?? [], parsed), [live.data, parsed]);
  const proxies = useProxies().data?.proxies ?? [];

  const body = useMemo<EvaluateBody | undefined>(
    () =>
      parsed.errors.length
        ? undefined
        : { draft: text, requests: checks, ...(proxy ? { proxies: [proxy] } : {}), ...(contracts.length ? { contracts } : {}) },
    [parsed.errors.length, text, checks, proxy, contracts],
  );
  const q = useSandboxEvaluate(body);
  const [shown, setShown] = useState<EvaluateResult>();
  useEffect(() => {
    if (q.data && usable(q.data)) setShown(q.data);
  }, [q.data]);

  const selected = proxy ?? shown?.blastRadius[0]?.proxy;
  const diff = shown?.diffs.find((d) => d.proxy === selected);
  const errors: SandboxProblem[] = parsed.errors.length
    ? parsed.errors.map((e) => ({ level: 'error', message: `YAML syntax error: ${e.message}`, line: e.line, column: e.column, doc: e.doc }))
    : (q.data?.errors ?? []);
  const findings = parsed.errors.length ? (shown?.findings ?? []) : (q.data?.findings ?? []);
  const problems = useMemo<EditorProblem[]>(
    () =>
      [...errors, ...findings.filter((f) => f.state !== 'resolved')]
        .filter((p) => p.line !== undefined)
        .map((p) => ({
          line: p.line as number,
          ...(p.column ? { column: p.column } : {}),
          level: p.level,
          message: `${p.code ? `${p.code} ` : ''}${p.message}`,
        })),
    [errors, findings],
  );

  const addDoc = (yaml: string) => {
    const next = appendDoc(text, yaml);
    setText(next);
    setDoc(text.trim() ? docs.length : 0);
  };
  const loadLive = (c: LiveConfig) => addDoc(liveObjectYaml(c));

  return (
    <>
      <h1>Sandbox</h1>
      <p className="muted">
        Edit Istio config as a draft over the live mesh and see what it would produce — which proxies change, how, and where requests go —
        before anything is applied. Nothing here changes the mesh.
      </p>
      <SandboxToolbar text={text} live={live.data} onAdd={addDoc} onLoadLive={loadLive} />
      <div className="sb-grid">
        <div className="sb-left">
          {docs.length > 1 ? (
            <fieldset className="toolbar sb-docs" aria-label="Draft objects">
              {docs.map((d) => (
                <button
                  key={d.index}
                  type="button"
                  className="chip"
                  aria-pressed={d.index === docIndex}
                  onClick={() => {
                    setDoc(d.index);
                    editor.current?.gotoLine(d.line);
                  }}
                >
                  {d.broken ? '⚠ ' : ''}
                  {d.kind ?? 'document'} {d.name ?? `#${d.index}`}
                </button>
              ))}
            </fieldset>
          ) : null}
          <DraftEditor value={text} onChange={setText} problems={problems} onReady={(api) => (editor.current = api)} />
          {load && loaded.isPending ? <p className="muted small">Loading {load}…</p> : null}
          {loaded.error ? (
            <p className="error-text small">
              Could not load {load}: {loaded.error.message}
            </p>
          ) : null}
          {text.trim() ? (
            <section className="panel sb-helpers">
              <h2>
                Form helpers{' '}
                <span className="muted small">
                  {docs[docIndex]?.kind ?? ''} {docs[docIndex]?.name ?? ''}
                </span>
              </h2>
              <FormHelpers text={text} doc={docIndex} form={form} onText={setText} subsetsFor={subsetsFor} />
            </section>
          ) : (
            <p className="empty" data-testid="sandbox-empty">
              Start from a template (New…), load a live object, or use “Load into sandbox” on the overview’s routes or a route’s source
              panel.
            </p>
          )}
        </div>
        <div className="sb-right">
          <p
            className="sb-status small"
            data-testid="sandbox-status"
            data-state={parsed.errors.length ? 'unparsed' : q.waiting ? 'running' : q.error ? 'failed' : shown ? 'done' : 'idle'}
          >
            {parsed.errors.length ? (
              <span className="error-text">The YAML does not parse{shown ? ': showing the last result' : ''}.</span>
            ) : q.waiting ? (
              <span className="sb-running">Evaluating the draft…</span>
            ) : q.error ? (
              <span className="error-text">Evaluation failed: {q.error.message}</span>
            ) : q.data && !usable(q.data) ? (
              <span className="error-text">
                No object of the draft could be read{shown ? ': showing the last result that evaluated' : ''}.
              </span>
            ) : shown ? (
              <span className="muted">Evaluated: {shown.edits.map((e) => `${e.op} ${e.object}`).join(', ') || 'no objects'}</span>
            ) : (
              <span className="muted">Nothing evaluated yet.</span>
            )}
          </p>
          <ProblemsPanel errors={errors} findings={findings} onGoto={(line) => editor.current?.gotoLine(line)} />
          {shown ? <BlastRadius entries={shown.blastRadius} stats={shown.stats} selected={selected} onSelect={setProxy} /> : null}
          {diff ? (
            <ProxyDiffPanel key={diff.proxy} diff={diff} hosts={hosts} />
          ) : selected && shown?.blastRadius.length ? (
            <p className="muted small">Loading the diff of {selected}…</p>
          ) : null}
          <ChecksPanel
            checks={checks}
            results={shown?.checks ?? []}
            contracts={contracts}
            contractResults={shown?.contracts}
            proxies={proxies}
            ambientPods={ambientPods}
            onChange={setChecks}
            onContracts={setContracts}
          />
        </div>
      </div>
    </>
  );
}
