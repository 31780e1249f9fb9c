// MSC0001 / MSC0002 — meshscope's own analyzer (no Istio tool has it): every regex a VirtualService hands to
// Envoy as a safe_regex (route.go / ConvertToEnvoyMatch: uri, headers, withoutHeaders, queryParams, scheme,
// method, authority, corsPolicy.allowOrigins, rewrite.uriRegexRewrite.match) is compiled by Envoy with RE2,
// and Envoy rejects the resource when RE2's program size exceeds runtime `re2.max_program_size.error_level`
// (source/common/common/regex.cc CompiledGoogleReMatcher: default 100). istio-agent's bootstrap raises the
// level to 32768 (pkg/bootstrap/config.go extractRuntimeFlags), so above 32768 is an Error (istio-proxy
// NACKs); above 100 a Warning (an Envoy on the runtime default NACKs). istiod only caps the length at 1024
// (validation.go validateStringRegexp), which does not bound the program size.
import type { HTTPRoute, StringMatch } from '../model/istio';
import type { IstioConfig } from '../model/mesh';
import type { Problem } from '../model/problem';
import { re2ProgramSize } from '../lib/re2ProgramSize';
import { report } from './messages';
import type { Analyzer } from './types';

/** Envoy's default runtime `re2.max_program_size.error_level`. */
export const ENVOY_DEFAULT_RE2_ERROR_LEVEL = 100;
/** The level istio-agent's bootstrap sets (`re2.max_program_size.error_level: "32768"`). */
export const ISTIO_PROXY_RE2_ERROR_LEVEL = 32768;

type VS = IstioConfig<'VirtualService'>;

function regexesOf(r: HTTPRoute | undefined, p: string): [string, string][] {
  const out: [string, string][] = [];
  const sm = (m: StringMatch | undefined, path: string) => {
    if (typeof m?.regex === 'string' && m.regex !== '') out.push([m.regex, `${path}.regex`]);
  };
  (r?.match ?? []).forEach((m, i) => {
    const mp = `${p}.match[${i}]`;
    for (const k of ['uri', 'scheme', 'method', 'authority'] as const) sm(m?.[k], `${mp}.${k}`);
    for (const k of ['headers', 'queryParams', 'withoutHeaders'] as const)
      for (const [name, v] of Object.entries(m?.[k] ?? {})) if (!(k === 'withoutHeaders' && v?.regex === '*')) sm(v, `${mp}.${k}.${name}`);
  });
  (r?.corsPolicy?.allowOrigins ?? []).forEach((o, i) => sm(o, `${p}.corsPolicy.allowOrigins[${i}]`));
  const rw = r?.rewrite?.uriRegexRewrite?.match;
  if (typeof rw === 'string' && rw !== '') out.push([rw, `${p}.rewrite.uriRegexRewrite.match`]);
  return out;
}

function analyzeVs(vs: VS, out: Problem[]): void {
  (vs.spec.http ?? []).forEach((r, i) => {
    for (const [re, path] of regexesOf(r, `spec.http[${i}]`)) {
      const size = re2ProgramSize(re);
      if (size === undefined) continue; // a syntax error: IST0106 already
      if (size > ISTIO_PROXY_RE2_ERROR_LEVEL) out.push(report('RegexProgramSizeExceeded', vs, path, re, size, ISTIO_PROXY_RE2_ERROR_LEVEL));
      else if (size > ENVOY_DEFAULT_RE2_ERROR_LEVEL)
        out.push(
          report('RegexProgramSizeOverEnvoyDefault', vs, path, re, size, ENVOY_DEFAULT_RE2_ERROR_LEVEL, ISTIO_PROXY_RE2_ERROR_LEVEL),
        );
    }
  });
}

export const regexProgramSizeAnalyzer: Analyzer = {
  meta: {
    name: 'meshscope.RegexProgramSizeAnalyzer',
    description: 'Checks that every VirtualService regex compiles within Envoy’s RE2 program size limit',
    inputs: ['VirtualService'],
  },
  analyze(s) {
    const out: Problem[] = [];
    for (const vs of s.virtualServices) analyzeVs(vs, out);
    return out;
  },
};
