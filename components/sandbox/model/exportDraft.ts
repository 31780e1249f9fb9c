// Exporting the draft: a `kubectl apply -f -` command (here-document with a delimiter that cannot occur
// in the text), and a live object turned back into draft YAML without server-set metadata.
import { stringify } from 'yaml';

export function kubectlCommand(yaml: string): string {
  let delim = 'EOF';
  for (let i = 0; yaml.split('\n').includes(delim); i++) delim = `EOF_${i}`;
  const body = yaml.endsWith('\n') ? yaml : `${yaml}\n`;
  // Quoted delimiter: the shell expands nothing inside ($, `, \ stay as written).
  return `kubectl apply -f - <<'${delim}'\n${body}${delim}\n`;
}

/** Fields the API server sets; a draft leaves them out (kubectl apply would refuse a stale resourceVersion). */
const SERVER_SET = ['creationTimestamp', 'resourceVersion', 'uid', 'generation', 'managedFields', 'selfLink'];

export function liveObjectYaml(o: { apiVersion?: string; kind: string; metadata: Record<string, unknown>; spec?: unknown }): string {
  const metadata = Object.fromEntries(Object.entries(o.metadata).filter(([k]) => !SERVER_SET.includes(k)));
  return stringify(
    { apiVersion: o.apiVersion ?? 'networking.istio.io/v1', kind: o.kind, metadata, spec: o.spec ?? {} },
    { indentSeq: false },
  );
}

/** Appends a document to a draft (`---` between), or starts the draft with it. */
export function appendDoc(draft: string, doc: string): string {
  if (!draft.trim()) return doc;
  return `${draft.endsWith('\n') ? draft : `${draft}\n`}---\n${doc}`;
}
