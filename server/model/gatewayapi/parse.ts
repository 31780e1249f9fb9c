// Gateway API objects (already classified, with parsed metadata) → defaulted specs sorted by kind.
// An object whose spec fails the CRD schema is dropped with a located error (the API server would have
// rejected it); everything else loads.
import type { z } from 'zod';
import type { LoadError, ObjectMeta, Origin } from '../mesh';
import { type PathIssue, stripNulls, zodIssues } from '../schema/common';
import { gatewayClassSpec, gatewaySpec, grpcRouteSpec, httpRouteSpec, l4RouteSpec, referenceGrantSpec } from './schema';
import type { GatewayApiKind, GatewayApiObjects, GwObject } from './types';

/** A Gateway API object before its spec is checked. */
export interface RawGwObject {
  kind: GatewayApiKind;
  apiVersion: string;
  meta: ObjectMeta;
  spec: unknown;
  origin: Origin;
  /** Gateways: status.addresses as written by the controller (a waypoint counts only once it has one). */
  statusAddresses?: { type: string; value: string }[];
}

/** Versions istiod reads per kind (TCPRoute/TLSRoute are v1alpha2; TLSRoute also v1 in recent releases). */
export const GATEWAY_API_VERSIONS: Readonly<Record<GatewayApiKind, readonly string[]>> = {
  GatewayClass: ['v1', 'v1beta1'],
  Gateway: ['v1', 'v1beta1'],
  HTTPRoute: ['v1', 'v1beta1'],
  GRPCRoute: ['v1', 'v1alpha2'],
  ReferenceGrant: ['v1', 'v1beta1', 'v1alpha2'],
  TCPRoute: ['v1alpha2'],
  TLSRoute: ['v1alpha2', 'v1alpha3', 'v1'],
};

export const emptyGatewayApi = (): GatewayApiObjects => ({
  gatewayClasses: [],
  gateways: [],
  httpRoutes: [],
  grpcRoutes: [],
  tcpRoutes: [],
  tlsRoutes: [],
  referenceGrants: [],
});

const SCHEMAS: Record<GatewayApiKind, { schema: z.ZodType; bucket: keyof GatewayApiObjects }> = {
  GatewayClass: { schema: gatewayClassSpec, bucket: 'gatewayClasses' },
  Gateway: { schema: gatewaySpec, bucket: 'gateways' },
  HTTPRoute: { schema: httpRouteSpec, bucket: 'httpRoutes' },
  GRPCRoute: { schema: grpcRouteSpec, bucket: 'grpcRoutes' },
  TCPRoute: { schema: l4RouteSpec, bucket: 'tcpRoutes' },
  TLSRoute: { schema: l4RouteSpec, bucket: 'tlsRoutes' },
  ReferenceGrant: { schema: referenceGrantSpec, bucket: 'referenceGrants' },
};

/** The located schema issues of one Gateway API spec (what the API server would refuse); [] when valid. */
export function gatewayApiSpecIssues(kind: GatewayApiKind, spec: unknown): PathIssue[] {
  const res = SCHEMAS[kind].schema.safeParse(stripNulls(spec ?? {}));
  return res.success ? [] : zodIssues(res.error, 'spec');
}

export function parseGatewayApi(raws: readonly RawGwObject[]): { objects: GatewayApiObjects; errors: LoadError[] } {
  const objects = emptyGatewayApi();
  const errors: LoadError[] = [];
  for (const raw of raws) {
    const { schema, bucket } = SCHEMAS[raw.kind];
    const res = schema.safeParse(stripNulls(raw.spec ?? {}));
    if (!res.success) {
      for (const issue of zodIssues(res.error, 'spec')) {
        const e: LoadError = {
          severity: 'error',
          message: `${issue.message} (object rejected, as the API server's schema would)`,
          object: `${raw.kind} ${raw.meta.namespace ? `${raw.meta.namespace}/` : ''}${raw.meta.name}`,
          path: issue.path,
        };
        if (raw.origin.file !== undefined) e.file = raw.origin.file;
        if (raw.origin.doc !== undefined) e.doc = raw.origin.doc;
        errors.push(e);
      }
      continue;
    }
    (objects[bucket] as GwObject<unknown>[]).push({ ...raw, spec: res.data });
  }
  return { objects, errors };
}
