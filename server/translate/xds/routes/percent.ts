// Istio percentages → Envoy FractionalPercent (route.go translatePercentToFractionalPercent /
// translateIntegerToFractionalPercent). HUNDRED is the proto default and is omitted, as protobuf prints it.
import type { FractionalPercentJson } from '../../../gen/envoy/type/v3/percent_pb';

/** Percent{value: 12.5} → {numerator: 125000, denominator: MILLION} (uint32(value * 10000), truncated). */
export function percentToFractional(value: number): FractionalPercentJson {
  const n = Number.isFinite(value) ? Math.min(1_000_000, Math.max(0, Math.trunc(value * 10000))) : 0;
  return n === 0 ? { denominator: 'MILLION' } : { numerator: n, denominator: 'MILLION' };
}

/** Integer percent (deprecated fields) → {numerator: p} out of HUNDRED. */
export function integerToFractional(p: number): FractionalPercentJson {
  const n = Number.isFinite(p) ? Math.min(100, Math.max(0, Math.trunc(p))) : 0;
  return n === 0 ? {} : { numerator: n };
}
