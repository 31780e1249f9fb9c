// The analyzer contract (Istio's pkg/config/analysis/analyzer.go: Analyzer{Metadata, Analyze}), as pure
// functions over one MeshSnapshot returning located Problems with Istio's message codes (msg/messages.yaml);
// analyze() hands them out as Findings (the JSON contract).
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
import type { Problem } from '../model/problem';

/** The analyze contract's finding and level (the JSON `meshscope analyze -o json` prints): server/model/problem. */
export type { Finding, Level } from '../model/problem';

export interface AnalyzerMeta {
  /** Istio's analyzer name where there is one, e.g. `virtualservice.DestinationHostAnalyzer`. */
  name: string;
  description: string;
  /** Kinds read. */
  inputs: readonly string[];
  /** Runs only when istiod runs with the ambient profile (the snapshot carries the ambient index). */
  ambientOnly?: boolean;
}

export interface AnalyzeContext {
  options: TranslateOptions;
}

export interface Analyzer {
  meta: AnalyzerMeta;
  /** Located problems, each with Istio's message code. */
  analyze(snapshot: MeshSnapshot, ctx: AnalyzeContext): Problem[];
}
