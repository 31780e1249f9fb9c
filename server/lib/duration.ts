// google.protobuf.Duration as written in Istio YAML (Go time.ParseDuration syntax: "10s", "1.5s", "500ms",
// "1m30s", "24h") → canonical proto3 JSON ("10s", "1.500s"). The one duration parser: routes, clusters,
// listeners (tcp_proxy) and VirtualService validation.
// Pure; invalid input returns undefined (the caller reports it).

const UNIT_NANOS: Record<string, bigint> = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ns: 1n,
};

/** Total nanoseconds of a Go/proto duration string; undefined when it does not parse or is negative. */
export function parseDurationNanos(input: unknown): bigint | undefined {
  if (typeof input === 'number' && Number.isFinite(input) && input >= 0) return BigInt(Math.round(input * 1e9));
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  if (s === '0') return 0n;
  if (s === '' || s.startsWith('-')) return undefined;
  const body = s.startsWith('+') ? s.slice(1) : s;
  const re = /(\d+(?:\.\d*)?|\.\d+)(h|ms|m|s|us|µs|μs|ns)/y;
  let total = 0n;
  let pos = 0;
  while (pos < body.length) {
    re.lastIndex = pos;
    const m = re.exec(body);
    if (!m) return undefined;
    const [, num, unit] = m as unknown as [string, string, string];
    const scale = UNIT_NANOS[unit] as bigint;
    const [intPart = '0', frac = ''] = num.split('.');
    total += BigInt(intPart === '' ? '0' : intPart) * scale;
    if (frac) total += (BigInt(frac) * scale) / 10n ** BigInt(frac.length);
    pos = re.lastIndex;
  }
  return total;
}

/** Canonical proto3 JSON of a duration: fractional digits 0, 3, 6 or 9 (as protobuf prints it). */
export function formatDuration(nanos: bigint): string {
  const secs = nanos / 1_000_000_000n;
  const rem = nanos % 1_000_000_000n;
  if (rem === 0n) return `${secs}s`;
  let frac = rem.toString().padStart(9, '0');
  if (frac.endsWith('000000')) frac = frac.slice(0, 3);
  else if (frac.endsWith('000')) frac = frac.slice(0, 6);
  return `${secs}.${frac}s`;
}

/** Parse + format; undefined when invalid. */
export function normalizeDuration(input: unknown): string | undefined {
  const n = parseDurationNanos(input);
  return n === undefined ? undefined : formatDuration(n);
}

/** Whole seconds of a duration (Go Duration.GetSeconds()), undefined when invalid. */
export function durationSeconds(input: unknown): bigint | undefined {
  const n = parseDurationNanos(input);
  return n === undefined ? undefined : n / 1_000_000_000n;
}

/** DestinationRule durations must be strings: a bare number there is invalid (routes accept seconds). */
export function normalizeDurationText(input: unknown): string | undefined {
  return typeof input === 'string' ? normalizeDuration(input) : undefined;
}

/** Whole seconds of a duration string (TCP keepalive fields are uint32 seconds); undefined when invalid. */
export function durationTextSeconds(input: unknown): number | undefined {
  const s = typeof input === 'string' ? durationSeconds(input) : undefined;
  return s === undefined ? undefined : Number(s);
}
