// IST0128 / IST0129 — Istio's destinationrule.CaCertificateAnalyzer (analyzers/destinationrule/ca-certificates.go):
// trafficPolicy.tls (and each portLevelSettings[].tls) in SIMPLE or MUTUAL mode without caCertificates
// (unless a credentialName is set on a DestinationRule with a workloadSelector) does not verify the server.
import { report } from './messages';
import type { Problem } from '../model/problem';
import type { Analyzer } from './types';
import type { ClientTLSSettings } from '../model/istio';

const unverified = (tls: ClientTLSSettings | undefined, hasSelector: boolean): tls is ClientTLSSettings =>
  (tls?.mode === 'SIMPLE' || tls?.mode === 'MUTUAL') && !tls.caCertificates && !(tls.credentialName && hasSelector);

export const caCertificateAnalyzer: Analyzer = {
  meta: {
    name: 'destinationrule.CaCertificateAnalyzer',
    description: 'Checks if caCertificates is set when TLS mode is SIMPLE/MUTUAL',
    inputs: ['DestinationRule'],
  },
  analyze(s) {
    const out: Problem[] = [];
    for (const dr of s.destinationRules) {
      const name = `${dr.meta.namespace}/${dr.meta.name}`;
      const hasSelector = dr.spec.workloadSelector !== undefined;
      const tls = dr.spec.trafficPolicy?.tls;
      if (unverified(tls, hasSelector))
        out.push(
          report(
            'NoServerCertificateVerificationDestinationLevel',
            dr,
            'spec.trafficPolicy.tls',
            name,
            dr.meta.namespace,
            tls.mode ?? '',
            dr.spec.host,
          ),
        );
      (dr.spec.trafficPolicy?.portLevelSettings ?? []).forEach((p, i) => {
        if (unverified(p?.tls, hasSelector))
          out.push(
            report(
              'NoServerCertificateVerificationPortLevel',
              dr,
              `spec.trafficPolicy.portLevelSettings[${i}].tls`,
              name,
              dr.meta.namespace,
              p.tls?.mode ?? '',
              dr.spec.host,
              `number:${p.port?.number ?? 0}`,
            ),
          );
      });
    }
    return out;
  },
};
