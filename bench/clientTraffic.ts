// The clients' traffic during a connect wave as bench/clientProc.ts reports it, and the line the wave rows print.

export interface Traffic {
  clients: number;
  responses: number;
  resources: number;
  bytes: number;
  /** min, median, max over the clients */
  perClientBytes: number[];
  perClientResources: number[];
  /** Responses decoded in full with protobuf-es and compared with the wire reading. */
  verified: number;
  verifyEvery: number;
  verifyClients: number;
  mismatches: number;
  routeMismatch: number;
  firstMismatches: string[];
  /** The client processes' CPU (user + system) and system time during the wave, ms (process.cpuUsage, summed). */
  cpuMs: number;
  sysMs: number;
  /** Of cpuMs, the sample's full decodes, run once every client is in sync (bench/clientVerify.ts checkKept). */
  verifyCpuMs: number;
}

/** Sums the reports of several client processes. */
export function sumTraffic(ts: Traffic[]): Traffic | undefined {
  if (ts.length === 0) return undefined;
  const spread = (k: 'perClientBytes' | 'perClientResources') => [
    Math.min(...ts.map((t) => t[k][0]!)),
    ts.map((t) => t[k][1]!).sort((a, b) => a - b)[Math.floor(ts.length / 2)]!,
    Math.max(...ts.map((t) => t[k][2]!)),
  ];
  const sum = (
    k:
      | 'clients'
      | 'responses'
      | 'resources'
      | 'bytes'
      | 'verified'
      | 'verifyClients'
      | 'mismatches'
      | 'routeMismatch'
      | 'cpuMs'
      | 'sysMs'
      | 'verifyCpuMs',
  ) => ts.reduce((n, t) => n + t[k], 0);
  return {
    clients: sum('clients'),
    responses: sum('responses'),
    resources: sum('resources'),
    bytes: sum('bytes'),
    perClientBytes: spread('perClientBytes'),
    perClientResources: spread('perClientResources'),
    verified: sum('verified'),
    verifyEvery: ts[0]!.verifyEvery,
    verifyClients: sum('verifyClients'),
    mismatches: sum('mismatches'),
    routeMismatch: sum('routeMismatch'),
    firstMismatches: ts.flatMap((t) => t.firstMismatches).slice(0, 5),
    cpuMs: sum('cpuMs'),
    sysMs: sum('sysMs'),
    verifyCpuMs: sum('verifyCpuMs'),
  };
}

const kB = (b: number) => `${(b / 1024).toFixed(0)} kB`;

/** The client processes' CPU beside the server's: on one machine it is on the server's wall clock too. */
export const clientCpuText = (t: Traffic): string =>
  `client processes CPU ${t.cpuMs.toFixed(0)} ms (sys ${t.sysMs.toFixed(0)} ms; ${(t.cpuMs / (t.bytes / 2 ** 20)).toFixed(2)} ms/MiB received; ` +
  `${t.verifyCpuMs.toFixed(0)} ms of it the sample's full decodes, after the last client's sync)`;

export const trafficText = (t: Traffic): string =>
  `${clientCpuText(t)}; clients received ${t.responses} responses, ${t.resources} resources, ${(t.bytes / 2 ** 20).toFixed(1)} MiB ` +
  `(per client ${kB(t.perClientBytes[0]!)} / ${kB(t.perClientBytes[1]!)} / ${kB(t.perClientBytes[2]!)} and ` +
  `${t.perClientResources.join(' / ')} resources, min / median / max); ${t.verified} decoded in full and compared ` +
  `(every ${t.verifyEvery}th + all of ${t.verifyClients} clients): ${t.mismatches} mismatches` +
  (t.firstMismatches.length ? ` (${t.firstMismatches.join('; ')})` : '');
