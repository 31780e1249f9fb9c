// Completion and hover for the sandbox editor from Istio's CRD schemas (components/sandbox/schema/istio.json,
// extracted from @kubernetes-models/istio by scripts/gen-istio-schemas.mjs). Pure: the YAML path at a
// position is found from indentation (it must work while the text does not parse), then looked up in
// the schema of the document's kind.

export interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  enum?: unknown[];
  format?: string;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  description?: string;
}

export interface SchemaSet {
  source: string;
  kinds: Record<string, SchemaNode>;
}

/** A path segment: a key, or `[]` for "an item of this list". */
export type PathSeg = string | '[]';

export interface YamlPosition {
  /** The document's `kind:` (top-level) when written. */
  kind?: string;
  /** Keys from the document root to the mapping the position is in (`spec`, `http`, `[]`, …). */
  path: PathSeg[];
  /** The key written on this line before the position, when the position is after `key:`. */
  key?: string;
  /** Characters of a key being typed at the position (for completion), and where they start. */
  prefix: string;
  prefixFrom: number;
}

interface Line {
  text: string;
  from: number;
}

function docLines(text: string, offset: number): { lines: Line[]; cursorLine: number } {
  const lines: Line[] = [];
  let from = 0;
  for (const t of text.split('\n')) {
    lines.push({ text: t, from });
    from += t.length + 1;
  }
  let cursorLine = lines.findIndex((l) => offset >= l.from && offset <= l.from + l.text.length);
  if (cursorLine < 0) cursorLine = lines.length - 1;
  // The document the cursor is in: between `---` lines.
  let start = cursorLine;
  while (start > 0 && !/^---/.test(lines[start - 1]?.text ?? '')) start--;
  let end = cursorLine;
  while (end < lines.length - 1 && !/^---/.test(lines[end + 1]?.text ?? '')) end++;
  return { lines: lines.slice(start, end + 1), cursorLine: cursorLine - start };
}

const KEY_RE = /^([A-Za-z_$][\w.$-]*|"[^"]*"|'[^']*')\s*:(?=\s|$)/;

interface Frame {
  seg: PathSeg;
  col: number;
  item: boolean;
}

/** Feeds one line's tokens (dashes, then a key) into the stack; returns the key of the line's last token. */
function feed(stack: Frame[], text: string, stopAt = text.length): { key?: string; col: number; rest: string } {
  let col = /^ */.exec(text)?.[0].length ?? 0;
  const place = (c: number, dash: boolean) => {
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top || top.col < c) break;
      // A dash at its key's column is that key's list item (flush sequence: `http:\n- route:`).
      if (top.col === c && dash && !top.item) break;
      stack.pop();
    }
  };
  for (;;) {
    const rest = text.slice(col, stopAt);
    const dash = /^-(?: +|$)/.exec(rest);
    if (dash) {
      place(col, true);
      stack.push({ seg: '[]', col, item: true });
      col += dash[0].length;
      continue;
    }
    const k = KEY_RE.exec(rest);
    place(col, false);
    if (k) {
      const key = (k[1] ?? '').replace(/^["']|["']$/g, '');
      return { key, col, rest };
    }
    return { col, rest };
  }
}

/**
 * Where `offset` is in the YAML: the chain of keys (and list items) above it, by indentation, so it works
 * while the text does not parse. Handles `- key:` list items and flush sequences (`http:\n- route:`).
 */
export function yamlPosition(text: string, offset: number): YamlPosition {
  const { lines, cursorLine } = docLines(text, offset);
  const stack: Frame[] = [];
  let kind: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const km = /^kind:\s*([A-Za-z]+)/.exec(lines[i]?.text ?? '');
    if (km) kind = km[1];
  }
  for (let i = 0; i < cursorLine; i++) {
    const t = lines[i]?.text ?? '';
    if (!t.trim() || /^\s*#/.test(t)) continue;
    const r = feed(stack, t);
    if (r.key !== undefined) stack.push({ seg: r.key, col: r.col, item: false });
  }
  const cur = lines[cursorLine] ?? { text: '', from: 0 };
  const col = offset - cur.from;
  const r = feed(stack, cur.text, col);
  const out: YamlPosition = { path: stack.map((f) => f.seg), prefix: '', prefixFrom: offset };
  if (r.key !== undefined) out.key = r.key;
  else if (/^[\w.$-]*$/.test(r.rest)) {
    out.prefix = r.rest;
    out.prefixFrom = offset - r.rest.length;
  }
  if (kind) out.kind = kind;
  return out;
}

function unwrap(n: SchemaNode | undefined): SchemaNode | undefined {
  if (!n) return n;
  const alt = n.oneOf ?? n.anyOf;
  if (!n.properties && !n.items && alt) return alt.find((a) => a.properties || a.items) ?? n;
  return n;
}

/** The schema node at `path` (keys and `[]`) under a kind's `spec`; paths start at the document root. */
export function schemaAt(set: SchemaSet, kind: string | undefined, path: readonly PathSeg[]): SchemaNode | undefined {
  const spec = kind ? set.kinds[kind] : undefined;
  if (!spec || path[0] !== 'spec') return undefined;
  let node: SchemaNode | undefined = unwrap(spec);
  for (const seg of path.slice(1)) {
    if (!node) return undefined;
    if (seg === '[]') node = unwrap(node.items);
    else if (node.properties?.[seg]) node = unwrap(node.properties[seg]);
    else if (node.additionalProperties && typeof node.additionalProperties === 'object') node = unwrap(node.additionalProperties);
    else return undefined;
  }
  return node;
}

/** A short type line: `object`, `string (duration)`, `array of object`, `one of: A | B`. */
export function describeType(n: SchemaNode | undefined): string {
  if (!n) return 'unknown';
  if (n.enum?.length) return `one of: ${n.enum.map(String).join(' | ')}`;
  if (n.type === 'array') return `array of ${describeType(n.items)}`;
  if (n.type === 'object' && n.additionalProperties && typeof n.additionalProperties === 'object' && !n.properties)
    return `map of ${describeType(n.additionalProperties)}`;
  if (n.format) return `${n.type ?? 'value'} (${n.format})`;
  return n.type ?? 'value';
}

const TOP_KEYS: Record<string, string> = {
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService | DestinationRule | Gateway | ServiceEntry | Sidecar',
  metadata: 'object: name, namespace, labels, annotations',
  spec: 'object (the kind’s spec)',
};

export interface KeyCompletion {
  label: string;
  detail: string;
  /** Text to insert: `key: ` for scalars, `key:\n` for objects and lists. */
  apply: string;
}

/** Keys that may be written at the position (those already in the same mapping are still offered). */
export function keyCompletions(set: SchemaSet, pos: YamlPosition): KeyCompletion[] {
  if (pos.key !== undefined) return [];
  if (pos.path.length === 0) return Object.entries(TOP_KEYS).map(([label, detail]) => ({ label, detail, apply: `${label}: ` }));
  const node = schemaAt(set, pos.kind, pos.path);
  const props = node?.properties;
  if (!props) return [];
  return Object.entries(props)
    .filter(([k]) => k.startsWith(pos.prefix) && !k.includes('_'))
    .map(([label, p]) => {
      const t = unwrap(p);
      const nested = t?.type === 'object' || t?.type === 'array';
      return { label, detail: describeType(t), apply: nested ? `${label}:` : `${label}: ` };
    });
}

/** What a key means at a position: its path and type, for hover. */
export function keyInfo(set: SchemaSet, pos: YamlPosition): { path: string; type: string } | undefined {
  if (pos.key === undefined) return undefined;
  const path = [...pos.path, pos.key];
  const printable = path.reduce<string>((s, seg) => (seg === '[]' ? `${s}[]` : s ? `${s}.${seg}` : seg), '');
  if (path.length === 1) return TOP_KEYS[path[0] as string] ? { path: printable, type: TOP_KEYS[path[0] as string] as string } : undefined;
  const node = schemaAt(set, pos.kind, path);
  if (!node) return { path: printable, type: `not a field of ${pos.kind ?? 'this object'} (the server reports unknown fields)` };
  return { path: printable, type: describeType(node) };
}
