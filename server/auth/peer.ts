// Who is on the other end of the TCP connection. Next.js does not hand route handlers or the proxy the
// socket, and it keeps a client's own X-Forwarded-For, so `meshscope serve` preloads bin/peer-address.mjs
// into the server process: it overwrites PEER_HEADER with the socket's address on every request before
// Next.js sees it. Header sign-in trusts the user headers only from peers inside the configured CIDRs.
import { BlockList, isIP } from 'node:net';

export const PEER_HEADER = 'x-meshscope-peer';

/** A CIDR list as Node's BlockList; throws on a malformed entry (serve validates the flag with it). */
export function cidrList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const c of cidrs) {
    const [ip, bits] = c.trim().split('/');
    const family = isIP(ip ?? '');
    if (!ip || family === 0) throw new Error(`"${c}" is not a CIDR (address/prefix)`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const max = family === 6 ? 128 : 32;
    const prefix = bits === undefined ? max : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits)))
      throw new Error(`"${c}" has a bad prefix length (0–${max})`);
    list.addSubnet(ip, prefix, type);
  }
  return list;
}

/** Whether `peer` (as the socket reports it, IPv4-mapped IPv6 included) is in `list`. */
export function peerTrusted(list: BlockList, peer: string | null | undefined): boolean {
  if (!peer) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer);
  const ip = mapped?.[1] ?? peer;
  const family = isIP(ip);
  if (family === 0) return false;
  return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}
