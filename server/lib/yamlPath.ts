// Field paths as problems name them (`spec.http[0].route[1].weight`, `metadata.labels["app.kubernetes.io/name"]`)
// resolved to nodes of a parsed YAML document, so a problem can be located at its line.
import { isMap, isSeq, type Node } from 'yaml';

/**
 * `spec.http[0].route[1].weight` → ['spec','http',0,'route',1,'weight']; a key written `["a.b/c"]` (how
 * schema/common formatPath writes keys that are not identifiers) is one segment.
 */
export function pathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      i++;
    } else if (c === '[') {
      const close = path.indexOf(']', i);
      const quoted = path[i + 1] === '"' ? /^\["((?:[^"\\]|\\.)*)"\]/.exec(path.slice(i)) : null;
      if (quoted) {
        out.push(JSON.parse(`"${quoted[1]}"`) as string);
        i += quoted[0].length;
      } else if (close > i && /^\d+$/.test(path.slice(i + 1, close))) {
        out.push(Number(path.slice(i + 1, close)));
        i = close + 1;
      } else {
        out.push(path.slice(i));
        break;
      }
    } else {
      let j = i;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/** The deepest node on `path` under `root` (the closest existing ancestor when the field is missing). */
export function nodeAt(root: Node | null, path: string | undefined): Node | null {
  let node: Node | null = root;
  if (!path) return node;
  for (const seg of pathSegments(path)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === seg);
      if (!pair) return node;
      // A missing value (`weight:`) is located at its key.
      node = (pair.value as Node | null) ?? (pair.key as Node);
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) return node;
      node = item;
    } else return node;
  }
  return node;
}
