// HTTPFaultInjection → envoy.extensions.filters.http.fault.v3.HTTPFault (istio route.go:TranslateFault),
// placed in the route's typed_per_filter_config["envoy.filters.http.fault"].
import type { HTTPFaultJson } from '../../../gen/envoy/extensions/filters/http/fault/v3/fault_pb';
import type { HTTPFaultInjection } from '../../../model/istio';
import { normalizeDuration } from '../../../lib/duration';
import { integerToFractional, percentToFractional } from './percent';

export const FAULT_FILTER = 'envoy.filters.http.fault';

/** pkg/util/grpc SupportedGRPCStatus. */
const GRPC_STATUS: Record<string, number> = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
};

export interface FaultResult {
  /** Undefined when neither a delay nor an abort survives (istiod then packs an empty HTTPFault). */
  fault?: HTTPFaultJson;
  problems: { field: string; message: string; severity: 'error' | 'warning' }[];
}

export function translateFault(f: HTTPFaultInjection): FaultResult {
  const problems: FaultResult['problems'] = [];
  const out: HTTPFaultJson = {};
  if (f.delay) {
    const percentage =
      f.delay.percentage != null
        ? percentToFractional(Number(f.delay.percentage.value ?? 0))
        : integerToFractional(Number(f.delay.percent ?? 0));
    if (f.delay.fixedDelay !== undefined) {
      const d = normalizeDuration(f.delay.fixedDelay);
      if (d === undefined)
        problems.push({ field: 'delay.fixedDelay', message: `invalid duration "${String(f.delay.fixedDelay)}"`, severity: 'error' });
      else out.delay = { fixedDelay: d, percentage };
    } else {
      problems.push({
        field: 'delay',
        message: 'only fixedDelay faults are supported (exponentialDelay is ignored, as istiod does)',
        severity: 'warning',
      });
    }
  }
  if (f.abort) {
    const abort: NonNullable<HTTPFaultJson['abort']> = {};
    if (f.abort.percentage != null) abort.percentage = percentToFractional(Number(f.abort.percentage.value ?? 0));
    const status = Math.trunc(Number(f.abort.httpStatus));
    if (f.abort.httpStatus !== undefined && !(status >= 200 && status < 600)) {
      problems.push({ field: 'abort.httpStatus', message: `invalid HTTP status ${String(f.abort.httpStatus)}`, severity: 'error' });
    } else if (f.abort.httpStatus !== undefined) {
      out.abort = { httpStatus: status, ...abort };
    } else if (f.abort.grpcStatus !== undefined) {
      const code = GRPC_STATUS[String(f.abort.grpcStatus).toUpperCase()];
      if (code === undefined)
        problems.push({ field: 'abort.grpcStatus', message: `unknown gRPC status "${f.abort.grpcStatus}"`, severity: 'error' });
      else out.abort = { grpcStatus: code, ...abort };
    } else {
      problems.push({ field: 'abort', message: 'only HTTP and gRPC abort faults are supported', severity: 'warning' });
    }
  }
  return out.delay || out.abort ? { fault: out, problems } : { problems };
}
