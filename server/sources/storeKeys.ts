// Store identity and change classification for raw objects.
import { isDeepStrictEqual } from 'node:util';
import type { RawInput, RawObject } from './types';
import { objectKey } from '../model/schema/kinds';

/** `group/version/kind/namespace/name` of a raw object, or undefined when it lacks kind/apiVersion/name. */
export function rawKey(o: RawObject): string | undefined {
  const md = (o.metadata && typeof o.metadata === 'object' ? o.metadata : {}) as Record<string, unknown>;
  if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof md.name !== 'string') return undefined;
  return objectKey(o.apiVersion, o.kind, typeof md.namespace === 'string' ? md.namespace : undefined, md.name);
}

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
