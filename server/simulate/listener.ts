// Listener selection. Istio's simulator (pilot/pkg/simulation/traffic.go matchListener) and Envoy's
// original-destination hand-off (Listener.use_original_dst): outbound traffic is redirected to
// virtualOutbound (15001), which hands the connection to the listener bound to the exact original
// `address:port`, else to `0.0.0.0:port`, else keeps it on its own chains. Inbound traffic is redirected to
// virtualInbound (15006) and matched on its chains. Gateways have no redirect: the listener on the port.
import { bool, isObj, num, obj, objs, str, type J } from './json';
import { isWildcardAddress } from './ip';
import type { Rejection, SimCtx } from './types';

export interface ListenerPick {
  listener?: J;
  name?: string;
  rejected: Rejection[];
  notes: string[];
}

interface Sock {
  address?: string;
  port?: number;
}

function sockets(l: J): Sock[] {
  const out: Sock[] = [];
  const main = obj(obj(l, 'address'), 'socket_address');
  if (main) out.push({ address: str(main, 'address'), port: num(main, 'port_value') });
  for (const a of objs(l, 'additional_addresses')) {
    const s = obj(obj(a, 'address'), 'socket_address');
    if (s) out.push({ address: str(s, 'address'), port: num(s, 'port_value') });
  }
  return out;
}

export function listenerName(l: J): string {
  const n = str(l, 'name');
  if (n) return n;
  const s = sockets(l)[0];
  return s ? `${s.address ?? ''}_${s.port ?? 0}` : '(unnamed internal listener)';
}

const VIRTUAL_OUTBOUND = 'virtualOutbound';
const VIRTUAL_INBOUND = 'virtualInbound';

function virtualListener(listeners: J[], name: string, port: number): J | undefined {
  return (
    listeners.find((l) => str(l, 'name') === name) ??
    listeners.find((l) => bool(l, 'use_original_dst') === true && sockets(l).some((s) => s.port === port))
  );
}

function byAddress(listeners: J[], ctx: SimCtx, boundOnly: boolean, rejected: Rejection[], exclude?: J): J | undefined {
  const candidates = listeners.filter((l) => l !== exclude && (!boundOnly || bool(l, 'bind_to_port') !== false));
  const exact = ctx.address ? candidates.find((l) => sockets(l).some((s) => s.port === ctx.port && s.address === ctx.address)) : undefined;
  const wildcard = candidates.find((l) => sockets(l).some((s) => s.port === ctx.port && isWildcardAddress(s.address)));
  const hit = exact ?? wildcard;
  listeners.forEach((l, index) => {
    if (l === hit || l === exclude) return;
    const onPort = sockets(l).filter((s) => s.port === ctx.port);
    if (onPort.length === 0) return;
    const reason =
      boundOnly && bool(l, 'bind_to_port') === false
        ? 'bind_to_port is false (reachable only through an original-destination hand-off)'
        : hit && hit === exact
          ? `address ${ctx.address ?? ''} matched another listener exactly`
          : `address ${onPort.map((s) => s.address).join(',')} does not match ${ctx.address ?? '(none)'}`;
    rejected.push({ hop: 'listener', name: listenerName(l), index, reason });
  });
  return hit;
}

export function selectListener(listeners: J[], ctx: SimCtx): ListenerPick {
  const rejected: Rejection[] = [];
  const notes: string[] = [];
  const valid = listeners.filter(isObj);
  const pick = (l: J | undefined): ListenerPick => (l ? { listener: l, name: listenerName(l), rejected, notes } : { rejected, notes });
  if (ctx.listenerName !== undefined) return pick(valid.find((l) => listenerName(l) === ctx.listenerName));
  if (ctx.mode === 'gateway') return pick(byAddress(valid, ctx, true, rejected));
  if (ctx.mode === 'inbound') {
    const vin = virtualListener(valid, VIRTUAL_INBOUND, 15006);
    if (vin) return pick(vin);
    notes.push('no virtualInbound listener: matching listeners by address instead');
    return pick(byAddress(valid, ctx, true, rejected));
  }
  const vout = virtualListener(valid, VIRTUAL_OUTBOUND, 15001);
  const hit = byAddress(valid, ctx, false, rejected, vout);
  if (hit) return pick(hit);
  if (vout) {
    notes.push(`no listener on ${ctx.address ?? '0.0.0.0'}:${ctx.port}: the connection stays on ${listenerName(vout)}`);
    return pick(vout);
  }
  return pick(undefined);
}
