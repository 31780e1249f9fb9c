// A located problem about an Istio object (kind ns/name, field path, file and document), as every
// translator reports it. Pure.
import type { IstioConfig, LoadError } from '../model/mesh';

/** `Kind ns/name` at `path`, located in its source file and document when known. */
export function configError(
  c: Pick<IstioConfig, 'kind' | 'meta' | 'origin'>,
  path: string,
  message: string,
  severity: LoadError['severity'] = 'warning',
): LoadError {
  const e: LoadError = { severity, message, object: `${c.kind} ${c.meta.namespace}/${c.meta.name}`, path };
  if (c.origin.file !== undefined) e.file = c.origin.file;
  if (c.origin.doc !== undefined) e.doc = c.origin.doc;
  return e;
}
