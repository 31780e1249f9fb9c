// Istio durations as users write them (Go time.ParseDuration strings such as `30ms`, `1m30s`, `0.5s`)
// → protobuf JSON Duration (`0.030s`). Invalid input yields undefined (the caller reports it).

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

function parseNanos(input: unknown): bigint | undefined {
  if (typeof input !== 'string') return undefined;
  const s = input.trim();
  if (s === '0') return 0n;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let total = 0n;
  let pos = 0;
  let any = false;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) return undefined;
    const [whole = '0', frac = ''] = (m[1] ?? '0').split('.');
    const unit = UNIT_NANOS[m[2] ?? ''];
    if (unit === undefined) return undefined;
    const fracDigits = frac.slice(0, 18);
    const scale = 10n ** BigInt(fracDigits.length);
    total += BigInt(whole || '0') * unit + (fracDigits ? (BigInt(fracDigits) * unit) / scale : 0n);
    pos = re.lastIndex;
    any = true;
  }
  return any ? total : undefined;
}

/** `30ms` → `0.030s`; `10s` → `10s`; undefined when the string is not a duration. */
export function toProtoDuration(input: unknown): string | undefined {
  const n = parseNanos(input);
  if (n === undefined) return undefined;
  const secs = n / 1_000_000_000n;
  const nanos = n % 1_000_000_000n;
  if (nanos === 0n) return `${secs}s`;
  let frac = nanos.toString().padStart(9, '0');
  // protobuf JSON uses 0, 3, 6 or 9 fractional digits
  if (frac.endsWith('000000')) frac = frac.slice(0, 3);
  else if (frac.endsWith('000')) frac = frac.slice(0, 6);
  return `${secs}.${frac}s`;
}

/** Whole seconds of a duration (TCP keepalive fields are uint32 seconds). */
export function toSeconds(input: unknown): number | undefined {
  const n = parseNanos(input);
  return n === undefined ? undefined : Number(n / 1_000_000_000n);
}
