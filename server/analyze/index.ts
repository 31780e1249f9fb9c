// `analyze(snapshot)`: every analyzer over one snapshot → findings with Istio's codes, sorted
// (Error, Warning, Info; then code, object, path) and de-duplicated. Pure: no I/O, no clock.
import { optionsOf, type MeshSnapshot, type TranslateOptions } from '../model/mesh';
import { caCertificateAnalyzer } from './caCertificates';
import { authorizationPoliciesAnalyzer } from './authorizationPolicies';
import { conflictingMeshGatewayHostsAnalyzer } from './conflictingMeshGatewayHosts';
import { subsetSelectPodAnalyzer } from './drSubsetPods';
import { gatewayApiConditionAnalyzer } from './gatewayApiConditions';
import { ingressGatewayPortAnalyzer } from './gatewayPorts';
import { loadErrorAnalyzer } from './loadErrors';
import { mtlsConflictAnalyzer } from './mtlsConflict';
import { toFinding, type Problem } from '../model/problem';
import type { Analyzer, Finding, Level } from './types';
import { unreachableRulesAnalyzer } from './unreachableRules';
import { destinationHostAnalyzer } from './vsDestinationHosts';
import { destinationRuleAnalyzer } from './vsDestinationRules';
import { gatewayAnalyzer } from './vsGateways';
import { analysisView } from './view';
import { sidecarSelectorAnalyzer } from './sidecarSelectors';
import { conflictingGatewayAnalyzer } from './conflictingGateways';
import { regexProgramSizeAnalyzer } from './regexProgramSize';
import { envoyPatchAnalyzer } from './envoyFilters';
import { byteCompare as cmp } from '../lib/compare';
import { ambientConditionAnalyzer } from './ambientConditions';
import { ambientEnrollmentAnalyzer } from './ambientEnrollment';
import { ambientNoWaypointAnalyzer } from './ambientNoWaypoint';
import { ambientPolicyAnalyzer } from './ambientPolicies';

export type { Analyzer, AnalyzeContext, AnalyzerMeta, Finding, Level } from './types';
export { MESSAGES } from './messages';

export const ANALYZERS: readonly Analyzer[] = [
  loadErrorAnalyzer,
  destinationHostAnalyzer,
  destinationRuleAnalyzer,
  gatewayAnalyzer,
  conflictingMeshGatewayHostsAnalyzer,
  unreachableRulesAnalyzer,
  subsetSelectPodAnalyzer,
  ingressGatewayPortAnalyzer,
  caCertificateAnalyzer,
  sidecarSelectorAnalyzer,
  conflictingGatewayAnalyzer,
  gatewayApiConditionAnalyzer,
  authorizationPoliciesAnalyzer,
  mtlsConflictAnalyzer,
  regexProgramSizeAnalyzer,
  envoyPatchAnalyzer,
  // Under istiod's ambient profile only (meta.ambientOnly).
  ambientEnrollmentAnalyzer,
  ambientConditionAnalyzer,
  ambientNoWaypointAnalyzer,
  ambientPolicyAnalyzer,
];

export interface AnalyzeOptions {
  options?: TranslateOptions;
  /** Run only these analyzers (by meta.name); all when absent. */
  only?: readonly string[];
  /** Leave out the load-error findings (IST0106/IST0133). */
  skipLoadErrors?: boolean;
}

export interface AnalyzeResult {
  findings: Finding[];
  /** Names of the analyzers that ran (one that throws is reported as IST0001 InternalError, never rethrown). */
  analyzers: string[];
}

const LEVEL_ORDER: Record<Level, number> = { Error: 0, Warning: 1, Info: 2 };

export function compareFindings(a: Finding, b: Finding): number {
  return (
    LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
    cmp(a.code, b.code) ||
    cmp(a.object, b.object) ||
    cmp(a.path ?? '', b.path ?? '') ||
    cmp(a.message, b.message)
  );
}

/**
 * The snapshot as `istioctl analyze` sees the inputs: without the configs istiod generates from Ingresses and
 * from Gateway API objects (those carry the `internal.istio.io/parents` annotation; Gateway API objects have
 * their own analyzers).
 */
function userConfigs(s: MeshSnapshot): MeshSnapshot {
  const generated = (c: { generatedBy?: unknown; meta?: { annotations?: Readonly<Record<string, string>> } } | null | undefined) =>
    c?.generatedBy !== undefined || c?.meta?.annotations?.['internal.istio.io/parents'] !== undefined;
  if (!s.virtualServices.some(generated) && !s.gateways.some(generated)) return s;
  return { ...s, virtualServices: s.virtualServices.filter((c) => !generated(c)), gateways: s.gateways.filter((c) => !generated(c)) };
}

export function analyze(input: MeshSnapshot, opts: AnalyzeOptions = {}): AnalyzeResult {
  let snapshot = input;
  try {
    snapshot = analysisView(userConfigs(input));
  } catch {
    // A malformed snapshot (never built by buildSnapshot): analyze what it holds; analyzers report their own failures.
  }
  const ctx = { options: opts.options ?? optionsOf(snapshot) };
  const selected = ANALYZERS.filter(
    (a) =>
      (!opts.only || opts.only.includes(a.meta.name)) &&
      !(opts.skipLoadErrors && a === loadErrorAnalyzer) &&
      (!a.meta.ambientOnly || snapshot.ambient !== undefined),
  );
  const all: Problem[] = [];
  for (const a of selected) {
    try {
      all.push(...a.analyze(snapshot, ctx));
    } catch (e) {
      all.push({
        severity: 'error',
        code: 'IST0001',
        message: `Internal error: analyzer ${a.meta.name}: ${(e as Error).message}`,
        object: '',
      });
    }
  }
  const seen = new Set<string>();
  const findings = all
    .map(toFinding)
    .filter((f) => {
      const k = `${f.code}\0${f.object}\0${f.path ?? ''}\0${f.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort(compareFindings);
  return { findings, analyzers: selected.map((a) => a.meta.name) };
}

export const hasErrors = (findings: readonly Finding[]): boolean => findings.some((f) => f.level === 'Error');
