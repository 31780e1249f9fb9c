// The editor's schemas are the package's, not hand-written: the checked-in file must be exactly what
// scripts/gen-istio-schemas.mjs extracts from the installed @kubernetes-models/istio.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { extract, KINDS } from './gen-istio-schemas.mjs';

describe('components/sandbox/schema/istio.json', () => {
  it('equals the extraction from @kubernetes-models/istio (run the script after upgrading it)', () => {
    const file = readFileSync(join(import.meta.dirname, '..', 'components', 'sandbox', 'schema', 'istio.json'), 'utf8');
    expect(JSON.parse(file)).toEqual(extract());
  });

  it('holds the spec schema of each kind the sandbox edits, with Istio field names', () => {
    const { kinds } = extract() as { kinds: Record<string, { properties: Record<string, unknown> }> };
    expect(Object.keys(kinds)).toEqual(KINDS);
    expect(Object.keys(kinds.DestinationRule?.properties ?? {})).toEqual(
      expect.arrayContaining(['host', 'subsets', 'trafficPolicy', 'exportTo']),
    );
    expect(Object.keys(kinds.Gateway?.properties ?? {})).toEqual(expect.arrayContaining(['selector', 'servers']));
  });
});
