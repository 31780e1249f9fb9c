'use client';
// Placeholder with the agreed props; replaced by the trace implementation.
export interface TraceTabProps {
  /** `POD.NS` for a mesh proxy; null for an uploaded config dump. */
  proxyId: string | null;
  /** The proxy's config_dump JSON (envoy.admin.v3.ConfigDump). */
  dump: unknown;
}
export function TraceTab(_props: TraceTabProps) {
  return <p>Trace a request: not built yet.</p>;
}
