// GET /api/gateway-api: the Gateway API objects as istiod reads them (server/model/gatewayapi): GatewayClasses,
// Gateways with their listener status and the proxy serving them (or none deployed), and routes with their
// rules and per-parent status (Accepted / ResolvedRefs with reasons), for the overview.
import type { GatewayApiModel } from '../model/gatewayapi/status';
import { memoized } from './snapshotMemo';
import { ok, type ApiContext, type ApiResult } from './types';

export interface GatewayApiResponse extends GatewayApiModel {
  version: number;
}

export function gatewayApiStatus(ctx: ApiContext): ApiResult<GatewayApiResponse> {
  const m = ctx.snapshot.gatewayApi;
  return ok(
    memoized(ctx, 'gatewayApi', () => ({
      version: ctx.snapshot.version,
      gatewayClasses: m?.gatewayClasses ?? [],
      gateways: m?.gateways ?? [],
      routes: m?.routes ?? [],
    })),
  );
}
