// `Authorization: Bearer TOKEN` (scheme case-insensitive, RFC 6750 §2.1).
export function bearerFrom(headers: Headers): string | undefined {
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get('authorization') ?? '');
  return m?.[1];
}
