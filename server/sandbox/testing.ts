// Test helpers: Bookinfo (../shared/fixtures, Istio's own sample manifests, loaded as they are) as a sandbox base.
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { buildSnapshot } from '../model/snapshot';
import { loadPaths } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';
import type { SandboxBase } from './evaluate';

export const bookinfoFile = (rel: string): string => (isAbsolute(rel) ? rel : bookinfo(...rel.split('/')));
export const readBookinfo = (rel: string): string => readFileSync(bookinfoFile(rel), 'utf8');

/** The acceptance base: platform/bookinfo.yaml + destination-rule-all.yaml + virtual-service-all-v1.yaml (+ extra files). */
export function bookinfoBase(extra: string[] = [], base = ['networking/virtual-service-all-v1.yaml']): SandboxBase {
  const files = ['platform/bookinfo.yaml', 'networking/destination-rule-all.yaml', ...base, ...extra].map(bookinfoFile);
  const { inputs, errors } = loadPaths(files);
  if (errors.length > 0) throw new Error(`fixture errors: ${JSON.stringify(errors)}`);
  return { snapshot: buildSnapshot(inputs, { version: 1 }), inputs };
}

/** A VirtualService for reviews with the given weights per subset, as YAML. */
export function reviewsSplit(weights: Record<string, number>): string {
  const route = Object.entries(weights)
    .map(([subset, w]) => `    - destination:\n        host: reviews\n        subset: ${subset}\n      weight: ${w}\n`)
    .join('');
  return `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: reviews\nspec:\n  hosts:\n  - reviews\n  http:\n  - route:\n${route}`;
}
