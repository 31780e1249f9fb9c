// The analyzer contract (Istio's pkg/config/analysis/analyzer.go: Analyzer{Metadata, Analyze}), as pure
// functions over one MeshSnapshot. Findings carry Istio's message codes (msg/messages.yaml).
import type { MeshSnapshot, Origin, TranslateOptions } from '../model/mesh';

export type Level = 'Error' | 'Warning' | 'Info';

export interface Finding {
  /** Istio's code, e.g. IST0101. */
  code: string;
  level: Level;
  message: string;
  /** `Kind namespace/name` */
  object: string;
  /** YAML path inside the object, e.g. `spec.http[0].route[1].destination.host`. */
  path?: string;
  /** Where the object was read from (file + document index). */
  origin?: Origin;
}

export interface AnalyzerMeta {
  /** Istio's analyzer name where there is one, e.g. `virtualservice.DestinationHostAnalyzer`. */
  name: string;
  description: string;
  /** Kinds read. */
  inputs: readonly string[];
}

export interface AnalyzeContext {
  options: TranslateOptions;
}

export interface Analyzer {
  meta: AnalyzerMeta;
  analyze(snapshot: MeshSnapshot, ctx: AnalyzeContext): Finding[];
}
