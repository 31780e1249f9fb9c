// Store identity and change classification for raw objects.
import { isDeepStrictEqual } from 'node:util';
import type { RawInput, RawObject } from './types';

export { rawKey } from '../model/parse/objects';

export const sameObject = (a: RawInput | undefined, b: RawInput | undefined): boolean =>
  a !== undefined && b !== undefined && (a === b || (isDeepStrictEqual(a.object, b.object) && isDeepStrictEqual(a.origin, b.origin)));

/**
 * Whether a change of one key only moves endpoints: an EndpointSlice, or a Pod whose only difference is
 * its `status` (IP / readiness). Adding or removing a Pod changes the proxy set, so it is not endpoints-only.
 */
export function endpointsOnlyChange(key: string, before: RawInput | undefined, after: RawInput | undefined): boolean {
  const kind = key.split('/')[2];
  if (kind === 'EndpointSlice') return true;
  if (kind !== 'Pod' || !before || !after) return false;
  const strip = (o: RawObject) => {
    const { status: _status, ...rest } = o;
    const md = { ...((rest.metadata ?? {}) as Record<string, unknown>) };
    delete md.resourceVersion;
    delete md.managedFields;
    return { ...rest, metadata: md };
  };
  return isDeepStrictEqual(strip(before.object), strip(after.object));
}
