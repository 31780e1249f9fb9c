// State-of-the-world ADS (StreamAggregatedResources), one instance per stream.
// Rules: shouldRespond.ts for requests; every response carries the full subscribed set of its type
// (LDS/CDS clients delete what a response leaves out); a NACKed content is never resent (wait for new
// config); a push re-sends a type only when its content for this client changed. One exception, istiod's:
// an endpoint-only push (no CDS in the batch) sends EDS incrementally — only the ClusterLoadAssignments whose
// content changed since this stream's last EDS response (pilot/pkg/xds/eds.go buildEndpoints with a partial
// push computes and sends only the updated services' CLAs, and pushXds sends nothing when none is left). In
// SotW only LDS and CDS are full state: an EDS response leaves the CLAs it does not carry as they are (Envoy's
// GrpcMuxImpl updates only the watches a response names; grpc-js-xds: allResourcesRequiredInSotW() is false
// for EDS). A request (a new stream, a changed subscription) and any batch with CDS get the full set: an
// updated cluster warms on the CLA sent after it, as istiod's full pushes send every CLA after CDS.
import type { DiscoveryRequest } from '../gen/envoy/service/discovery/v3/discovery_pb';
import { ConnectionBase, type AdsConnection } from './connection';
import { isGrpcListenerRequest } from './node';
import { TYPE } from '../envoy/typeUrls';
import { shouldRespond } from './shouldRespond';
import { encodeDiscoveryResponse, sotwResponse } from './wire';
import type { KeyedSubscription, PreparedSotw } from './prepared';
import type { ResourceSet, TypeUrl } from './types';
import type { EncodedResource } from '../envoy/encode';

interface SotwWatch {
  typeUrl: string;
  wildcard: boolean;
  names: ReadonlySet<string>;
  nonceSent?: string;
  /**
   * The selection of the last response sent (prepared.ts): its content fingerprint is worked out only when a
   * push or a NACK compares it, so the waves' requested responses make none.
   */
  sent?: PreparedSotw;
  /** Content fingerprint of the last NACKed response. */
  nackedFingerprint?: string;
  /** subscriptionKey of wildcard + names (recomputed when they change). */
  key: string;
  /** The resource_names of the request that set the subscription (shouldRespond's ACK check). */
  requested?: readonly string[];
  /** EDS: the whole list the client holds after the last response sent (what an incremental push diffs against). */
  sentResources?: readonly EncodedResource[];
}

export class SotwConnection extends ConnectionBase<DiscoveryRequest, SotwWatch> implements AdsConnection {
  readonly mode = 'sotw' as const;

  protected modeName(): string {
    return 'SotW';
  }

  protected requestName(): string {
    return 'DiscoveryRequest';
  }

  protected emptyAnswer(typeUrl: string, nonce: string): Uint8Array {
    return encodeDiscoveryResponse({ versionInfo: '', anys: [], typeUrl, nonce, controlPlane: this.ctx.controlPlane });
  }

  onRequest(req: DiscoveryRequest): void {
    const typeUrl = req.typeUrl;
    if (!typeUrl) return;
    if (!this.admit(typeUrl, req.resourceNames.length)) return;
    const watch = this.watches.get(typeUrl);
    const errorDetail = req.errorDetail ? { code: req.errorDetail.code, message: req.errorDetail.message } : undefined;
    const d = shouldRespond(
      watch,
      {
        typeUrl,
        responseNonce: req.responseNonce,
        resourceNames: req.resourceNames,
        ...(errorDetail ? { errorDetail } : {}),
      },
      // The subscription with its key, one per shared resource_names list (prepared.ts).
      this.ctx.sotwResponses,
    );
    switch (d.kind) {
      case 'nack': {
        const w = watch!;
        w.nackedFingerprint = w.sent?.fingerprint;
        w.sentResources = undefined; // the client kept its older state: the next EDS response is the full set
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
        const sub = d.subscription as KeyedSubscription;
        if (typeUrl === TYPE.listener && this.client && this.client.flavour !== 'grpc' && isGrpcListenerRequest(sub.wildcard, sub.names)) {
          this.client.flavour = 'grpc';
          this.ctx.log(`ADS: ${this.id} asks LDS for host:port names: serving it as a proxyless gRPC client`);
        }
        const w: SotwWatch = watch ?? { typeUrl, wildcard: sub.wildcard, names: sub.names, key: '' };
        w.wildcard = sub.wildcard;
        w.names = sub.names;
        w.key = sub.key;
        w.requested = req.resourceNames;
        this.watches.set(typeUrl, w);
        this.respond(typeUrl, true);
        return;
      }
    }
  }

  /**
   * Sends the watch's full set (for EDS in a `partialEds` push: only what changed). `requested`: answering a
   * request (sent even when unchanged).
   */
  protected sendType(
    w: SotwWatch,
    set: ResourceSet | undefined,
    requested: boolean,
    _subscribed: ReadonlySet<string>,
    partialEds: boolean,
  ): Promise<void> {
    if (!set) return Promise.resolve();
    // Shared by every stream sent the same resources: selection, fingerprint and Any bytes (prepared.ts).
    const p = this.ctx.sotwResponses.prepare(set.byType.get(w.typeUrl as TypeUrl), w.typeUrl, set.version, w.wildcard, w.names, w.key);
    // Never resend what the client rejected; wait for new config (istiod / xDS protocol NACK rule).
    if (w.nackedFingerprint !== undefined && p.fingerprint === w.nackedFingerprint) return Promise.resolve();
    const sent = w.sent;
    if (!requested && sent && (sent === p || sent.fingerprint === p.fingerprint)) {
      w.sent = p; // the same content: keep the current selection, not an older translation's
      return Promise.resolve();
    }
    const isEds = w.typeUrl === TYPE.endpoint;
    const part = !requested && partialEds && isEds && w.sentResources ? this.ctx.sotwResponses.changed(p, w.sentResources) : undefined;
    if (part && part.resources.length === 0) {
      // Only CLAs left the list: the client keeps them either way (EDS is not full state); istiod sends nothing.
      w.sent = p;
      w.sentResources = p.resources;
      return Promise.resolve();
    }
    const nonce = this.nextNonce();
    const count = part ? part.resources.length : p.resources.length;
    // Written as grpc-js frames it (service.ts): no buffer of its own.
    const res = sotwResponse({
      versionInfo: set.version,
      typeUrl: w.typeUrl,
      nonce,
      controlPlane: this.ctx.controlPlane,
      anys: part ? part.anys : p.anys,
    });
    if (!this.checkSize(w.typeUrl, res.size, count)) return Promise.resolve();
    w.nonceSent = nonce;
    w.sent = p;
    if (isEds) w.sentResources = p.resources;
    this.tracker(w.typeUrl).sent(set.version, nonce, count, this.ctx.now());
    return this.write(res);
  }
}
