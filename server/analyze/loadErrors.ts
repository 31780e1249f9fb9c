// IST0106 SchemaValidationError / IST0133 SchemaWarning for the snapshot's located load errors: what
// Istio's schema.ValidationAnalyzer reports for objects that fail validation (meshscope drops those objects
// from the snapshot and keeps the error with its file, document, object and field path).
import type { LoadError } from '../model/mesh';
import { formatTemplate, MESSAGES } from './messages';
import type { Analyzer, Finding } from './types';

export function loadErrorFinding(e: LoadError): Finding {
  const t = e.severity === 'error' ? MESSAGES.SchemaValidationError : MESSAGES.SchemaWarning;
  const f: Finding = { code: t.code, level: t.level, message: formatTemplate(t.template, [e.message]), object: e.object ?? '' };
  if (e.path) f.path = e.path;
  if (e.file !== undefined || e.doc !== undefined) {
    f.origin = { source: 'file' };
    if (e.file !== undefined) f.origin.file = e.file;
    if (e.doc !== undefined) f.origin.doc = e.doc;
  }
  return f;
}

export const loadErrorAnalyzer: Analyzer = {
  meta: {
    name: 'schema.ValidationAnalyzer',
    description: 'Reports the located schema and load errors of the inputs',
    inputs: ['*'],
  },
  analyze: (s) => s.errors.map(loadErrorFinding),
};
