// Test helpers for the plain-YAML fast path (./parseFile): what the `yaml` parser alone makes of a text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The documents' values as the `yaml` parser (the reference path) reads them, or undefined when any has errors. */
export function yamlValues(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true });
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return undefined;
  return docs.map((d) => d.toJS({ maxAliasCount: 1000 }));
}

/** Every `.yaml`/`.yml` file under `dir` (recursively, node_modules and dot-entries skipped) and its text. */
export function yamlFilesUnder(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name)) out.push({ file: p, text: readFileSync(p, 'utf8') });
    }
  };
  walk(dir);
  return out;
}
