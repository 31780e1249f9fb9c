// model.BuildDNSSrvSubsetKey: the SNI istiod gives Istio mTLS clusters, `outbound_.PORT_.SUBSET_.HOST`
// (an empty subset is written `_`).
export const dnsSrvSubsetKey = (port: number, hostname: string, subset = ''): string => `outbound_.${port}_.${subset}_.${hostname}`;
