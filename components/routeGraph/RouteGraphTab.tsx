'use client';
// Placeholder with the agreed props; replaced by the route-graph implementation.
export interface RouteGraphTabProps {
  /** `POD.NS` for a mesh proxy; null for an uploaded config dump. */
  proxyId: string | null;
  /** The proxy's config_dump JSON (envoy.admin.v3.ConfigDump). */
  dump: unknown;
}
export function RouteGraphTab(_props: RouteGraphTabProps) {
  return <p>Route graph: not built yet.</p>;
}
