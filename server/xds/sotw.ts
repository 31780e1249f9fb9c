// State-of-the-world ADS (StreamAggregatedResources), one instance per stream.
// Rules: shouldRespond.ts for requests; every response carries the full subscribed set of its type
// (LDS/CDS clients delete what a response leaves out); a NACKed content is never resent (wait for new
// config); a push re-sends a type only when its content for this client changed.
import type { DiscoveryRequest } from '../gen/envoy/service/discovery/v3/discovery_pb';
import { ConnectionBase, type AdsConnection } from './connection';
import { isGrpcListenerRequest } from './node';
import { TYPE } from '../envoy/typeUrls';
import { shouldRespond } from './shouldRespond';
import { encodeDiscoveryResponse, sotwResponse } from './wire';
import { subscriptionKey } from './prepared';
import type { ResourceSet, TypeUrl } from './types';

interface SotwWatch {
  typeUrl: string;
  wildcard: boolean;
  names: Set<string>;
  nonceSent?: string;
  /** Content fingerprint of the last response sent (names + hashes). */
  sentFingerprint?: string;
  /** Content fingerprint of the last NACKed response. */
  nackedFingerprint?: string;
  /** subscriptionKey of wildcard + names (recomputed when they change). */
  key: string;
}

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
        const w: SotwWatch = watch ?? { typeUrl, wildcard: sub.wildcard, names: sub.names, key: '' };
        w.wildcard = sub.wildcard;
        w.names = sub.names;
        w.key = subscriptionKey(sub.wildcard, sub.names);
        this.watches.set(typeUrl, w);
        this.respond(typeUrl, true);
        return;
      }
    }
  }

  /** Sends the watch's full set. `requested`: answering a request (sent even when unchanged). */
  protected sendType(w: SotwWatch, set: ResourceSet | undefined, requested: boolean): Promise<void> {
    if (!set) return Promise.resolve();
    // Shared by every stream sent the same resources: selection, fingerprint and Any bytes (prepared.ts).
    const p = this.ctx.sotwResponses.prepare(set.byType.get(w.typeUrl as TypeUrl), w.typeUrl, set.version, w.wildcard, w.names, w.key);
    const fp = p.fingerprint;
    // Never resend what the client rejected; wait for new config (istiod / xDS protocol NACK rule).
    if (fp === w.nackedFingerprint) return Promise.resolve();
    if (!requested && fp === w.sentFingerprint) return Promise.resolve();
    const nonce = this.nextNonce();
    // Written as grpc-js frames it (service.ts): no buffer of its own.
    const res = sotwResponse({ versionInfo: set.version, typeUrl: w.typeUrl, nonce, controlPlane: this.ctx.controlPlane, anys: p.anys });
    if (!this.checkSize(w.typeUrl, res.size, p.resources.length)) return Promise.resolve();
    w.nonceSent = nonce;
    w.sentFingerprint = fp;
    this.tracker(w.typeUrl).sent(set.version, nonce, p.resources.length, this.ctx.now());
    return this.write(res);
  }
}
