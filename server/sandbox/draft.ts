// Draft text → ordered edits, through the same parse + validation path as every source (model/parse:
// parseInputs → zod schema + Istio webhook checks), with each problem located at its line and column in
// the draft text (the `yaml` package's LineCounter and node ranges). Valid objects still count; an
// invalid one is left out of the overlay (the live version, if any, stays). Pure; never throws.
import { LineCounter, type Node, parseAllDocuments } from 'yaml';
import { nodeAt } from '../lib/yamlPath';
import type { LoadError } from '../model/mesh';
import { parseInputs } from '../model/parse/objects';
import { withNamespace } from '../sources/file/loadPaths';
import { rawKey } from '../sources/storeKeys';
import type { RawObject } from '../sources/types';
import type { DraftEdit, SandboxProblem } from './types';

/** Marks a document as a deletion of the object it names (only apiVersion, kind and metadata are read). */
export const DELETE_ANNOTATION = 'sandbox.meshscope.io/delete';
/** At most this many documents in one draft (closed by default: a draft is a few objects, not a mesh). */
export const MAX_DRAFT_DOCS = 500;

export interface DraftDoc {
  /** 0-based document index. */
  doc: number;
  /** The document's YAML node (undefined for an empty document). */
  node: Node | null;
  /** Store key of the object, when it has one. */
  key?: string;
  /** `Kind namespace/name` */
  object?: string;
}

export interface ParsedDraft {
  edits: DraftEdit[];
  errors: SandboxProblem[];
  docs: DraftDoc[];
  /** Maps a 0-based offset in the draft text to a 1-based line/column. */
  position(offset: number): { line: number; column: number };
}

export { nodeAt, pathSegments } from '../lib/yamlPath';

const describeRaw = (o: RawObject): string => {
  const md = (o.metadata && typeof o.metadata === 'object' ? o.metadata : {}) as Record<string, unknown>;
  const ns = typeof md.namespace === 'string' ? `${md.namespace}/` : '';
  return `${String(o.kind ?? '<no kind>')} ${ns}${typeof md.name === 'string' ? md.name : '<unnamed>'}`;
};

const isDelete = (o: RawObject): boolean => {
  const md = (o.metadata && typeof o.metadata === 'object' ? o.metadata : {}) as { annotations?: Record<string, unknown> };
  const v = md.annotations?.[DELETE_ANNOTATION];
  return v === 'true' || v === true;
};

export function parseDraft(text: string): ParsedDraft {
  const lc = new LineCounter();
  const position = (offset: number) => {
    const p = lc.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const errors: SandboxProblem[] = [];
  const edits: DraftEdit[] = [];
  const docs: DraftDoc[] = [];
  let parsed: ReturnType<typeof parseAllDocuments>;
  try {
    parsed = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    return { edits, errors: [{ level: 'error', message: `YAML: ${(e as Error).message}`, line: 1, column: 1 }], docs, position };
  }
  const list = Array.isArray(parsed) ? parsed : [];
  list.forEach((d, doc) => {
    const at = (node: Node | null | undefined) => {
      const r = node?.range ?? d.contents?.range;
      return r ? position(r[0]) : {};
    };
    if (doc >= MAX_DRAFT_DOCS) {
      if (doc === MAX_DRAFT_DOCS)
        errors.push({ level: 'error', message: `too many documents (limit ${MAX_DRAFT_DOCS})`, doc, ...at(d.contents) });
      return;
    }
    const entry: DraftDoc = { doc, node: d.contents as Node | null };
    docs.push(entry);
    if (d.errors.length > 0) {
      for (const e of d.errors) errors.push({ level: 'error', message: `YAML: ${e.message.split('\n')[0]}`, doc, ...position(e.pos[0]) });
      return;
    }
    for (const w of d.warnings) errors.push({ level: 'warning', message: `YAML: ${w.message.split('\n')[0]}`, doc, ...position(w.pos[0]) });
    if (d.contents === null) return; // an empty document (`---` at the end)
    let value: unknown;
    try {
      value = d.toJS({ maxAliasCount: 100 });
    } catch (e) {
      errors.push({ level: 'error', message: `YAML: ${(e as Error).message}`, doc, ...at(d.contents as Node) });
      return;
    }
    if (value === null || value === undefined) return;
    if (typeof value !== 'object' || Array.isArray(value)) {
      errors.push({
        level: 'error',
        message: 'a document must be a Kubernetes object (a mapping with apiVersion, kind, metadata)',
        doc,
        ...at(d.contents as Node),
      });
      return;
    }
    const object = withNamespace(value as RawObject, 'default');
    entry.object = describeRaw(object);
    const key = rawKey(object);
    if (key !== undefined) entry.key = key;
    const origin = { doc, ...at(d.contents as Node) } as { doc: number; line: number; column?: number };
    const problems = validate(object, isDelete(object));
    for (const p of problems) {
      const node = nodeAt(d.contents as Node, p.path);
      errors.push({
        level: p.severity,
        message: p.message,
        object: p.object ?? entry.object,
        ...(p.path ? { path: p.path } : {}),
        doc,
        ...at(node),
      });
    }
    if (problems.some((p) => p.severity === 'error') || problems.some((p) => p.message.startsWith('unknown kind'))) return;
    if (key === undefined) {
      errors.push({
        level: 'error',
        message: 'an object needs apiVersion, kind and metadata.name',
        object: entry.object,
        doc,
        ...at(d.contents as Node),
      });
      return;
    }
    if (isDelete(object)) {
      const md = object.metadata as { name: string; namespace?: string };
      const ref = { apiVersion: String(object.apiVersion), kind: String(object.kind), namespace: md.namespace ?? '', name: md.name };
      edits.push({ op: 'delete', ref, origin });
    } else edits.push({ op: 'put', object: object as Record<string, unknown>, origin });
  });
  return { edits, errors, docs, position };
}

/** The sources' parse + validation of one object (deletions only need their identity). */
function validate(object: RawObject, deletion: boolean): LoadError[] {
  const subject = deletion ? { apiVersion: object.apiVersion, kind: object.kind, metadata: object.metadata } : object;
  if (deletion) {
    // Identity only: a kind the store knows, with apiVersion and name.
    const parsed = parseInputs([{ object: subject, origin: { source: 'sandbox' } }]);
    return parsed.errors.filter((e) => !e.notTranslated && !e.path?.startsWith('spec'));
  }
  return parseInputs([{ object: subject, origin: { source: 'sandbox' } }]).errors;
}
