// CorsPolicy → envoy.extensions.filters.http.cors.v3.CorsPolicy (istio route.go:TranslateCORSPolicy),
// placed in typed_per_filter_config["envoy.filters.http.cors"].
import type { CorsPolicyJson } from '../../../gen/envoy/extensions/filters/http/cors/v3/cors_pb';
import type { StringMatcherJson } from '../../../gen/envoy/type/matcher/v3/string_pb';
import type { CorsPolicy } from '../../../model/istio';
import { durationSeconds } from '../../../lib/duration';
import { toStringMatcher } from './match';

export const CORS_FILTER = 'envoy.filters.http.cors';

export function translateCorsPolicy(c: CorsPolicy): { policy: CorsPolicyJson; problems: { field: string; message: string }[] } {
  const problems: { field: string; message: string }[] = [];
  const out: CorsPolicyJson = {
    // unmatchedPreflights IGNORE → false; anything else keeps Envoy's pre-1.30 behaviour (forward).
    forwardNotMatchingPreflights: c.unmatchedPreflights !== 'IGNORE',
  };
  let origins: StringMatcherJson[] | undefined;
  if (Array.isArray(c.allowOrigins)) origins = c.allowOrigins.map(toStringMatcher).filter((m): m is StringMatcherJson => m !== undefined);
  else if (Array.isArray(c.allowOrigin)) origins = c.allowOrigin.map((exact) => ({ exact: String(exact) }));
  if (origins?.length) out.allowOriginStringMatch = origins;
  out.filterEnabled = { defaultValue: { numerator: 100 } };
  if (typeof c.allowCredentials === 'boolean') out.allowCredentials = c.allowCredentials;
  const join = (v: string[] | undefined) => (Array.isArray(v) ? v.map(String).join(',') : '');
  if (join(c.allowHeaders)) out.allowHeaders = join(c.allowHeaders);
  if (join(c.allowMethods)) out.allowMethods = join(c.allowMethods);
  if (join(c.exposeHeaders)) out.exposeHeaders = join(c.exposeHeaders);
  if (c.maxAge !== undefined) {
    const s = durationSeconds(c.maxAge);
    if (s === undefined) problems.push({ field: 'maxAge', message: `invalid duration "${String(c.maxAge)}"` });
    else out.maxAge = s.toString();
  }
  return { policy: out, problems };
}
