// The draft text as YAML documents (the `yaml` package's Document API, so comments and layout survive an
// edit): which objects it holds, and an edit of one document spliced back into the text without touching
// the others. Pure; used by the form helpers and the editor.
import { type Document, parseAllDocuments } from 'yaml';

export interface DraftDocInfo {
  /** 0-based document index in the draft. */
  index: number;
  kind?: string;
  name?: string;
  namespace?: string;
  /** 1-based line where the document starts. */
  line: number;
  /** The document does not parse. */
  broken: boolean;
}

export interface ParsedDraft {
  docs: Document.Parsed[];
  /** Character range of each document in the text (the first one includes leading comments). */
  spans: [number, number][];
  /** YAML syntax errors, located (1-based). */
  errors: { message: string; line: number; column: number; doc: number }[];
}

const lineOf = (text: string, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

export function parseDraft(text: string): ParsedDraft {
  const all = parseAllDocuments(text, { prettyErrors: false });
  const docs = Array.isArray(all) ? all : [];
  const spans: [number, number][] = docs.map((d, i) => [
    i === 0 ? 0 : d.range[0],
    i < docs.length - 1 ? (docs[i + 1]?.range[0] ?? 0) : text.length,
  ]);
  const errors: ParsedDraft['errors'] = [];
  docs.forEach((d, i) => {
    for (const e of d.errors) {
      const at = e.pos?.[0] ?? d.range[0];
      const line = lineOf(text, at);
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      errors.push({ message: e.message.split('\n')[0] ?? e.message, line, column: at - lineStart + 1, doc: i });
    }
  });
  return { docs, spans, errors };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export function draftDocs(text: string, parsed: ParsedDraft = parseDraft(text)): DraftDocInfo[] {
  return parsed.docs.map((d, i) => {
    const broken = d.errors.length > 0;
    let js: Record<string, unknown> | undefined;
    try {
      js = broken ? undefined : (d.toJS() as Record<string, unknown> | undefined);
    } catch {
      js = undefined;
    }
    const meta = (js?.metadata ?? {}) as Record<string, unknown>;
    const contentStart = d.contents?.range?.[0] ?? parsed.spans[i]?.[0] ?? 0;
    const info: DraftDocInfo = { index: i, line: lineOf(text, contentStart), broken };
    const kind = str(js?.kind);
    const name = str(meta.name);
    const namespace = str(meta.namespace);
    if (kind) info.kind = kind;
    if (name) info.name = name;
    if (namespace) info.namespace = namespace;
    return info;
  });
}

/** Whether the text writes block sequences at their key's indentation (`http:\n- route:`, Istio's samples do). */
export function usesFlushSequences(text: string): boolean {
  return /^( *)[^\s#-][^:\n]*:[ \t]*\n\1- /m.test(text);
}

/**
 * Applies `edit` to document `index` and returns the new draft text: only that document's text changes,
 * re-printed by the yaml library with its comments; the other documents stay byte for byte.
 * Returns the text unchanged when the document does not parse.
 */
export function editDraftDoc(text: string, index: number, edit: (doc: Document.Parsed) => void): string {
  const parsed = parseDraft(text);
  const doc = parsed.docs[index];
  const span = parsed.spans[index];
  if (!doc || !span || doc.errors.length) return text;
  edit(doc);
  let out = doc.toString({ indentSeq: !usesFlushSequences(text.slice(span[0], span[1])), lineWidth: 0 });
  if (index > 0 && !/^---/.test(out)) out = `---\n${out}`;
  return text.slice(0, span[0]) + out + text.slice(span[1]);
}
