// State-of-the-world ADS (StreamAggregatedResources), one instance per stream.
// Rules: shouldRespond.ts for requests; every response carries the full subscribed set of its type
// (LDS/CDS clients delete what a response leaves out); a NACKed content is never resent (wait for new
// config); a push re-sends a type only when its content for this client changed.
import type { DiscoveryRequest } from '../gen/envoy/service/discovery/v3/discovery_pb';
import type { EncodedResource } from '../envoy/encode';
import { ConnectionBase, type AdsConnection } from './connection';
import { isGrpcListenerRequest } from './node';
import { TYPE } from '../envoy/typeUrls';
import { shouldRespond } from './shouldRespond';
import { discoveryResponseSize, encodeDiscoveryResponse } from './wire';
import type { ResourceSet, TypeUrl } from './types';
import { byteCompareBy } from '../lib/compare';

interface SotwWatch {
  typeUrl: string;
  wildcard: boolean;
  names: Set<string>;
  nonceSent?: string;
  /** Content fingerprint of the last response sent (names + hashes). */
  sentFingerprint?: string;
  /** Content fingerprint of the last NACKed response. */
  nackedFingerprint?: string;
}

/** Picks the resources a watch gets from a resource set, in a stable order. */
export function selectSotw(set: ResourceSet, typeUrl: string, wildcard: boolean, names: ReadonlySet<string>): EncodedResource[] {
  const all = set.byType.get(typeUrl as TypeUrl);
  if (!all) return [];
  const out: EncodedResource[] = [];
  if (wildcard) {
    // Explicit names next to "*" are covered: they are in `all` when they exist.
    for (const r of all.values()) out.push(r);
  } else {
    for (const n of names) {
      const r = all.get(n);
      if (r) out.push(r);
    }
  }
  return out.sort(byteCompareBy((r) => r.name));
}

const fingerprint = (rs: readonly EncodedResource[]): string => rs.map((r) => `${r.name}@${r.hash}`).join('\n');

export class SotwConnection extends ConnectionBase<DiscoveryRequest, SotwWatch> implements AdsConnection {
  readonly mode = 'sotw' as const;

  protected modeName(): string {
    return 'SotW';
  }

  protected requestName(): string {
    return 'DiscoveryRequest';
  }

  onRequest(req: DiscoveryRequest): void {
    const typeUrl = req.typeUrl;
    if (!typeUrl) return;
    const empty = (nonce: string) =>
      encodeDiscoveryResponse({ versionInfo: '', anys: [], typeUrl, nonce, controlPlane: this.ctx.controlPlane });
    if (!this.admit(typeUrl, req.resourceNames.length, empty)) return;
    const watch = this.watches.get(typeUrl);
    const errorDetail = req.errorDetail ? { code: req.errorDetail.code, message: req.errorDetail.message } : undefined;
    const d = shouldRespond(watch, {
      typeUrl,
      responseNonce: req.responseNonce,
      resourceNames: req.resourceNames,
      ...(errorDetail ? { errorDetail } : {}),
    });
    switch (d.kind) {
      case 'nack': {
        const w = watch!;
        w.nackedFingerprint = w.sentFingerprint;
        this.recordNack(
          typeUrl,
          req.responseNonce,
          errorDetail?.code ?? 0,
          errorDetail?.message ?? '',
          `nonce=${req.responseNonce} version=${this.tracker(typeUrl).sentVersion ?? ''} (keeps ${(req.versionInfo || 'nothing').slice(0, 100)})`,
        );
        return;
      }
      case 'unsubscribe':
        this.watches.delete(typeUrl);
        return;
      case 'stale':
        return;
      case 'ack':
        this.tracker(typeUrl).acked(req.responseNonce, req.versionInfo);
        return;
      case 'initial':
      case 'resubscribe': {
        if (d.kind === 'resubscribe') this.tracker(typeUrl).acked(req.responseNonce, req.versionInfo);
        const sub = d.subscription!;
        if (typeUrl === TYPE.listener && this.client && this.client.flavour !== 'grpc' && isGrpcListenerRequest(sub.wildcard, sub.names)) {
          this.client.flavour = 'grpc';
          this.ctx.log(`ADS: ${this.id} asks LDS for host:port names: serving it as a proxyless gRPC client`);
        }
        const w: SotwWatch = watch ?? { typeUrl, wildcard: sub.wildcard, names: sub.names };
        w.wildcard = sub.wildcard;
        w.names = sub.names;
        this.watches.set(typeUrl, w);
        this.respond(typeUrl, true);
        return;
      }
    }
  }

  /** Sends the watch's full set. `requested`: answering a request (sent even when unchanged). */
  protected sendType(w: SotwWatch, set: ResourceSet | undefined, requested: boolean): Promise<void> {
    if (!set) return Promise.resolve();
    const resources = selectSotw(set, w.typeUrl, w.wildcard, w.names);
    const fp = fingerprint(resources);
    // Never resend what the client rejected; wait for new config (istiod / xDS protocol NACK rule).
    if (fp === w.nackedFingerprint) return Promise.resolve();
    if (!requested && fp === w.sentFingerprint) return Promise.resolve();
    const anys = resources.map((r) => this.ctx.anyCache.any(r));
    const nonce = this.nextNonce();
    const parts = { versionInfo: set.version, typeUrl: w.typeUrl, nonce, controlPlane: this.ctx.controlPlane };
    const size = discoveryResponseSize({ ...parts, anySizes: anys.map((a) => a.length) });
    if (!this.checkSize(w.typeUrl, size, resources.length)) return Promise.resolve();
    const bytes = encodeDiscoveryResponse({ ...parts, anys });
    w.nonceSent = nonce;
    w.sentFingerprint = fp;
    this.tracker(w.typeUrl).sent(set.version, nonce, resources.length, this.ctx.now());
    return this.write(bytes);
  }
}
