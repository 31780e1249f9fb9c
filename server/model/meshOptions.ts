// MeshConfig → TranslateOptions: every mesh-wide setting the translator reads, as one typed argument (never env).
import { parseExtensionProviders } from './extensionProviders';
import { defaultMeshConfig, type MeshConfig } from './meshConfig';
import type { MeshConfigState, TranslateOptions } from './mesh';

/** The TranslateOptions a mesh config gives (domainSuffix and clusterId are not MeshConfig fields). */
export function meshOptions(mc: MeshConfig, base: Pick<TranslateOptions, 'domainSuffix' | 'clusterId'>): TranslateOptions {
  return {
    domainSuffix: base.domainSuffix,
    clusterId: base.clusterId,
    rootNamespace: mc.rootNamespace,
    outboundTrafficPolicy: mc.outboundTrafficPolicy.mode,
    inboundTrafficPolicy: mc.inboundTrafficPolicy.mode,
    connectTimeout: mc.connectTimeout,
    protocolDetectionTimeout: mc.protocolDetectionTimeout,
    enableAutoMtls: mc.enableAutoMtls,
    trustDomain: mc.trustDomain,
    defaultServiceExportTo: mc.defaultServiceExportTo,
    defaultVirtualServiceExportTo: mc.defaultVirtualServiceExportTo,
    defaultDestinationRuleExportTo: mc.defaultDestinationRuleExportTo,
    localityLbSetting: mc.localityLbSetting,
    extensionProviders: parseExtensionProviders(mc.extensionProviders ?? []).providers,
    ...(mc.defaultHttpRetryPolicy ? { defaultHttpRetryPolicy: mc.defaultHttpRetryPolicy } : {}),
  };
}

/** The mesh state of inputs without any mesh config: istiod's defaults. */
export function defaultMeshState(base: Pick<TranslateOptions, 'domainSuffix' | 'clusterId'>): MeshConfigState {
  const config = defaultMeshConfig();
  return { config, origin: { source: 'defaults' }, options: meshOptions(config, base) };
}
