'use client';
// The draft editor: CodeMirror 6 with YAML, the server's located errors and findings as lint diagnostics
// at their lines, and completion + hover from Istio's schemas (schema/istio.json, from
// @kubernetes-models/istio). Browser-only: SandboxView loads it with next/dynamic (ssr: false), so neither
// CodeMirror nor the schemas enter the server bundle. window.__sandboxEditor is the view, for e2e tests.
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, hoverTooltip, keymap, lineNumbers } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import schemas from './schema/istio.json';
import { keyCompletions, keyInfo, type SchemaSet, yamlPosition } from './model/schemaAssist';

const SCHEMAS = schemas as SchemaSet;

export interface EditorProblem {
  line: number;
  column?: number;
  level: 'error' | 'warning' | 'info';
  message: string;
}

export interface EditorApi {
  /** Moves the cursor to a 1-based line and scrolls it into view. */
  gotoLine: (line: number) => void;
}

export interface DraftEditorProps {
  value: string;
  onChange: (text: string) => void;
  problems: readonly EditorProblem[];
  height?: number;
  onReady?: (api: EditorApi) => void;
}

function complete(ctx: CompletionContext): CompletionResult | null {
  const text = ctx.state.doc.toString();
  const pos = yamlPosition(text, ctx.pos);
  if (!ctx.explicit && pos.prefix === '') return null;
  const options = keyCompletions(SCHEMAS, pos).map((c) => ({ label: c.label, detail: c.detail, apply: c.apply, type: 'property' }));
  return options.length ? { from: pos.prefixFrom, options, validFor: /^[\w.$-]*$/ } : null;
}

const hover = hoverTooltip((view, at) => {
  const line = view.state.doc.lineAt(at);
  const m = /^(\s*(?:- +)*)([A-Za-z_$][\w.$-]*)\s*:/.exec(line.text);
  if (!m) return null;
  const start = line.from + (m[1] ?? '').length;
  const end = start + (m[2] ?? '').length;
  if (at < start || at > end) return null;
  const info = keyInfo(SCHEMAS, yamlPosition(view.state.doc.toString(), line.from + m[0].length));
  if (!info) return null;
  return {
    pos: start,
    end,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'sb-hover';
      const p = document.createElement('div');
      p.className = 'mono';
      p.textContent = info.path;
      const t = document.createElement('div');
      t.textContent = info.type;
      dom.append(p, t);
      return { dom };
    },
  };
});

/** Server problems → CodeMirror diagnostics on their line (from the column when known). */
export function toDiagnostics(state: EditorState, problems: readonly EditorProblem[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of problems) {
    if (!(p.line >= 1)) continue;
    const line = state.doc.line(Math.min(p.line, state.doc.lines));
    const from = Math.min(line.to, line.from + Math.max(0, (p.column ?? 1) - 1));
    out.push({ from, to: Math.max(line.to, from), severity: p.level === 'info' ? 'info' : p.level, message: p.message });
  }
  return out;
}

/** YAML colours from the page's theme variables, so light and dark both read well. */
const highlight = HighlightStyle.define([
  { tag: [t.definition(t.propertyName), t.propertyName], color: 'var(--accent)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--ok)' },
  { tag: [t.lineComment, t.comment], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [t.labelName, t.typeName, t.keyword], color: 'var(--warn)' },
  { tag: [t.meta, t.separator, t.punctuation, t.squareBracket, t.brace], color: 'var(--muted)' },
]);

const theme = EditorView.theme({
  '&': {
    height: '100%',
    backgroundColor: 'var(--bg)',
    color: 'var(--fg)',
    fontSize: '13px',
    border: '1px solid var(--border)',
    borderRadius: '6px',
  },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', caretColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 7%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 12%, transparent)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': {
    backgroundColor: 'color-mix(in srgb, var(--accent) 25%, transparent)',
  },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-scroller': { overflow: 'auto' },
});

export default function DraftEditor({ value, onChange, problems, height = 520, onReady }: DraftEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const changed = useRef(onChange);
  changed.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; `value` updates go through the effect below.
  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          highlightActiveLine(),
          indentOnInput(),
          bracketMatching(),
          syntaxHighlighting(highlight),
          yaml(),
          lintGutter(),
          autocompletion({ override: [complete] }),
          hover,
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.lineWrapping,
          theme,
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': 'Draft YAML', 'data-testid': 'sandbox-editor-content' }),
        ],
      }),
    });
    view.current = v;
    onReady?.({
      gotoLine: (n) => {
        const line = v.state.doc.line(Math.max(1, Math.min(n, v.state.doc.lines)));
        v.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) });
        v.focus();
      },
    });
    (window as unknown as { __sandboxEditor?: EditorView }).__sandboxEditor = v;
    return () => {
      const w = window as unknown as { __sandboxEditor?: EditorView };
      if (w.__sandboxEditor === v) delete w.__sandboxEditor;
      v.destroy();
      view.current = undefined;
    };
  }, []);

  // Text changed outside the editor (form helpers, a loaded object, a template): replace the document.
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const cur = v.state.doc.toString();
    if (cur === value) return;
    const head = Math.min(v.state.selection.main.head, value.length);
    v.dispatch({ changes: { from: 0, to: cur.length, insert: value }, selection: { anchor: head } });
  }, [value]);

  // After a text change too: the diagnostics are placed on the new document's lines.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `value` re-runs it on purpose.
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch(setDiagnostics(v.state, toDiagnostics(v.state, problems)));
  }, [problems, value]);

  return <div ref={host} className="sb-editor" data-testid="sandbox-editor" data-problems={problems.length} style={{ height }} />;
}
