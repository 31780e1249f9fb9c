// Locates problems at a line of their file: each problem with a file, a document index and (optionally) a field
// path gets `line`, the 1-based line of that field's key in the file (of the object when there is no path or the
// field is absent). The file is parsed again, once, only when one of its problems needs it — the sources keep no
// YAML syntax trees (a large mesh would need far more memory for them than for its objects).
import { readFileSync, statSync } from 'node:fs';
import { isMap, isSeq, LineCounter, type Node, parseAllDocuments } from 'yaml';
import { pathSegments } from '../../lib/yamlPath';
import type { RawInput } from '../../model/inputs';
import type { Finding, Problem } from '../../model/problem';
import { DEFAULT_FILE_LIMITS } from './parseFile';

type Locatable = Pick<Problem, 'file' | 'doc' | 'path' | 'object' | 'line'>;

/** Reads a file's text, or undefined (unreadable, not a file, over the size limit). */
export type ReadText = (file: string) => string | undefined;

/** ReadText from the filesystem (a regular file within the per-file size limit). */
export const readTextFile: ReadText = (file) => {
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > DEFAULT_FILE_LIMITS.maxFileBytes) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * ReadText limited to the files that `inputs` were read from (file and demo sources): a server locates its
 * problems without ever reading a path it was not given.
 */
export function inputFileReader(inputs: () => readonly RawInput[]): ReadText {
  let known: Set<string> | undefined;
  return (file) => {
    if (!known) {
      known = new Set();
      for (const i of inputs()) if ((i.origin.source === 'file' || i.origin.source === 'demo') && i.origin.file) known.add(i.origin.file);
    }
    return known.has(file) ? readTextFile(file) : undefined;
  };
}

interface ParsedFile {
  docs: (Node | null)[];
  lines: LineCounter;
}

/** A copy of each problem with `line` set where the file can be read and the document found. */
export function addLines<T extends Locatable>(problems: readonly T[], read: ReadText): T[] {
  const files = new Map<string, ParsedFile | undefined>();
  const parsed = (file: string): ParsedFile | undefined => {
    if (files.has(file)) return files.get(file);
    const text = read(file);
    let out: ParsedFile | undefined;
    if (text !== undefined && text.length <= DEFAULT_FILE_LIMITS.maxFileBytes) {
      try {
        const lines = new LineCounter();
        const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
        if (Array.isArray(docs)) out = { docs: docs.map((d) => d.contents as Node | null), lines };
      } catch {
        out = undefined;
      }
    }
    files.set(file, out);
    return out;
  };
  return problems.map((p) => {
    if (p.file === undefined || p.doc === undefined || p.line !== undefined) return p;
    const f = parsed(p.file);
    const root = f?.docs[p.doc];
    if (!f || !root) return p;
    const offset = offsetOf(objectNode(root, p.object), p.path);
    return offset === undefined ? p : { ...p, line: f.lines.linePos(offset).line };
  });
}

/** The object's node: the document itself, or the `items` entry named in `Kind ns/name` of a List document. */
function objectNode(root: Node, object: string | undefined): Node {
  if (!isMap(root)) return root;
  const items = root.get('items', true);
  if (!isSeq(items)) return root;
  const name = object?.split(' ')[1]?.split('/').pop();
  for (const item of items.items) {
    if (!isMap(item)) continue;
    const md = item.get('metadata', true);
    if (isMap(md) && md.get('name') === name) return item as Node;
  }
  return root;
}

/** Offset of the key of the field on `path` (of its closest existing ancestor), or of the object. */
function offsetOf(root: Node, path: string | undefined): number | undefined {
  let node: Node | null = root;
  let at = root.range?.[0];
  for (const seg of path ? pathSegments(path) : []) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === seg);
      if (!pair) break;
      at = (pair.key as Node | null)?.range?.[0] ?? at;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) break;
      at = item.range?.[0] ?? at;
      node = item;
    } else break;
  }
  return at;
}

/** Each finding about an object read from a file, located at its line (`origin.line`). */
export function findingsWithLines(findings: readonly Finding[], read: ReadText): Finding[] {
  const at = addLines(
    findings.map((f): Locatable => ({ file: f.origin?.file, doc: f.origin?.doc, path: f.path, object: f.object })),
    read,
  );
  return findings.map((f, i) => {
    const line = at[i]?.line;
    return line === undefined || !f.origin ? f : { ...f, origin: { ...f.origin, line } };
  });
}
