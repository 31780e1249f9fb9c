// IST0106 SchemaValidationError / IST0133 SchemaWarning for the snapshot's located load errors: what
// Istio's schema.ValidationAnalyzer reports for objects that fail validation (meshscope drops those objects
// from the snapshot and keeps the error with its file, document, object and field path).
import type { LoadError } from '../model/mesh';
import { formatTemplate, MESSAGES } from './messages';
import { severityOf, type Problem } from '../model/problem';
import type { Analyzer } from './types';

export function loadErrorFinding(e: LoadError): Problem {
  const t = e.severity === 'error' ? MESSAGES.SchemaValidationError : MESSAGES.SchemaWarning;
  const f: Problem = {
    severity: severityOf(t.level),
    code: t.code,
    message: formatTemplate(t.template, [e.message]),
    object: e.object ?? '',
  };
  if (e.path) f.path = e.path;
  if (e.file !== undefined) f.file = e.file;
  if (e.doc !== undefined) f.doc = e.doc;
  return f;
}

export const loadErrorAnalyzer: Analyzer = {
  meta: {
    name: 'schema.ValidationAnalyzer',
    description: 'Reports the located schema and load errors of the inputs',
    inputs: ['*'],
  },
  // The "not translated" note is meshscope's, not a schema message: Istio has no code for it (the IST0106 errors
  // beside it are the findings).
  analyze: (s) => s.errors.filter((e) => !e.notTranslated).map(loadErrorFinding),
};
