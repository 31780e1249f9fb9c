// The repo's import graph and the checks the layering test runs over it: file cycles, folder cycles and
// edges that go up the layers agreed in the layering notes (server/lib lowest … app highest). Pure
// functions over a graph, plus one reader that builds the graph from the source tree. `import type`,
// `export … from`, side-effect and dynamic imports all count.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** file (repo-relative, `/`-separated) → the repo files it imports. */
export type ImportGraph = Map<string, Set<string>>;

const SOURCE = /\.(ts|tsx)$/;
const SKIP_DIRS = new Set(['node_modules', '.next', 'gen', 'testdata', '.vendor']);

function walk(root: string, dir: string, out: string[]): void {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(root, rel, out);
    } else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
}

/**
 * The module specifiers a source file imports. The tree is Biome-formatted, so every top-level import and
 * re-export starts at column 0 and runs to its `from '…'` without a `;` (TypeScript 7 has no JS API to
 * ask; es-module-lexer cannot read JSX or `export type … from`). Cross-checked against es-module-lexer
 * on every non-JSX file when written: same specifiers, plus the `export type` ones it misses.
 */
export function importSpecifiers(source: string): string[] {
  const out = new Set<string>();
  for (const m of source.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"\n]+)['"]/gm)) out.add(m[1] as string);
  for (const m of source.matchAll(/^import\s*['"]([^'"\n]+)['"]/gm)) out.add(m[1] as string);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g)) out.add(m[1] as string);
  return [...out];
}

/** Resolves a specifier the way tsconfig does here (`@/` = repo root, relative paths, index files). */
function resolve(spec: string, from: string, files: ReadonlySet<string>): string | undefined {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = join(dirname(from), spec).split(sep).join('/');
  else return undefined; // a package
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (files.has(cand)) return cand;
  if (/\.js$/.test(base)) return resolve(spec.replace(/\.js$/, ''), from, files);
  return undefined;
}

/** The import graph of every .ts/.tsx file under `roots` (repo-relative folders or files). */
export function readImportGraph(repo: string, roots: readonly string[]): ImportGraph {
  const list: string[] = [];
  for (const r of roots) {
    if (SOURCE.test(r)) list.push(r);
    else walk(repo, r, list);
  }
  const files = new Set(list.map((f) => relative(repo, join(repo, f)).split(sep).join('/')));
  const graph: ImportGraph = new Map();
  for (const f of files) {
    const deps = new Set<string>();
    for (const spec of importSpecifiers(readFileSync(join(repo, f), 'utf8'))) {
      const to = resolve(spec, f, files);
      if (to && to !== f) deps.add(to);
    }
    graph.set(f, deps);
  }
  return graph;
}

/** Strongly connected components of more than one node (or a self-loop): every cycle, grouped. Tarjan. */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  const nodes = new Set<string>(graph.keys());
  for (const ds of graph.values()) for (const d of ds) nodes.add(d);
  // Iterative DFS (deep import chains must not overflow the call stack).
  for (const start of [...nodes].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; it: Iterator<string> }[] = [];
    const enter = (n: string) => {
      index.set(n, counter);
      low.set(n, counter);
      counter++;
      stack.push(n);
      onStack.add(n);
      work.push({ node: n, it: [...(graph.get(n) ?? [])].sort()[Symbol.iterator]() });
    };
    enter(start);
    while (work.length) {
      const top = work[work.length - 1] as { node: string; it: Iterator<string> };
      const next = top.it.next();
      if (!next.done) {
        const d = next.value;
        if (!index.has(d)) enter(d);
        else if (onStack.has(d)) low.set(top.node, Math.min(low.get(top.node) as number, index.get(d) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(top.node) as number));
      if (low.get(top.node) === index.get(top.node)) {
        const comp: string[] = [];
        let n: string | undefined;
        do {
          n = stack.pop() as string;
          onStack.delete(n);
          comp.push(n);
        } while (n !== top.node);
        if (comp.length > 1 || graph.get(top.node)?.has(top.node)) out.push(comp.sort());
      }
    }
  }
  return out.sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
}

/** The graph collapsed to folders by `group` (files it maps to undefined are left out); self-edges dropped. */
export function collapse(graph: ImportGraph, group: (file: string) => string | undefined): ImportGraph {
  const out: ImportGraph = new Map();
  for (const [f, deps] of graph) {
    const g = group(f);
    if (g === undefined) continue;
    const set = out.get(g) ?? new Set<string>();
    out.set(g, set);
    for (const d of deps) {
      const h = group(d);
      if (h !== undefined && h !== g) set.add(h);
    }
  }
  return out;
}

/** One layer: a name, its rank (higher may import lower), and the path prefixes it owns (`dir/` or a file). */
export interface Layer {
  name: string;
  rank: number;
  prefixes: readonly string[];
}

/** The layer owning a file: the one with the longest matching prefix. */
export function layerOf(file: string, layers: readonly Layer[]): Layer | undefined {
  let best: Layer | undefined;
  let len = -1;
  for (const l of layers)
    for (const p of l.prefixes)
      if (file.startsWith(p) && p.length > len) {
        best = l;
        len = p.length;
      }
  return best;
}

export interface Violation {
  from: string;
  to: string;
  reason: string;
}

/** Edges from a lower layer to a higher one. */
export function upwardEdges(graph: ImportGraph, layers: readonly Layer[]): Violation[] {
  const out: Violation[] = [];
  for (const [f, deps] of graph) {
    const lf = layerOf(f, layers);
    if (!lf) continue;
    for (const d of deps) {
      const ld = layerOf(d, layers);
      if (ld && ld.rank > lf.rank) out.push({ from: f, to: d, reason: `${lf.name} (${lf.rank}) imports ${ld.name} (${ld.rank})` });
    }
  }
  return out.sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1));
}

/** Edges from `from`-prefixed files to files not under any allowed prefix (a whitelist, e.g. what components may use). */
export function disallowedEdges(graph: ImportGraph, from: string, allowed: readonly string[], reason: string): Violation[] {
  const out: Violation[] = [];
  for (const [f, deps] of graph) {
    if (!f.startsWith(from)) continue;
    for (const d of deps) if (!d.startsWith(from) && !allowed.some((a) => d === a || d.startsWith(a))) out.push({ from: f, to: d, reason });
  }
  return out.sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1));
}
