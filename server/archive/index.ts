// An opened bug-report / must-gather archive as meshscope uses it (issue 21 §3): its cluster objects feed
// translation (RawInputs, located as `ARCHIVE:entry`), its pods' dumps feed a LiveSource (`source:
// "bug-report"` / `"must-gather"`) for /live and /drift. Pure over the read contents (read.ts does the I/O).
import { parseText } from '../sources/file/loadPaths';
import type { LoadError } from '../model/mesh';
import type { RawInput } from '../model/inputs';
import { LiveError, type LiveDump, type LiveFetchOptions, type LiveSource } from '../live/types';
import type { ArchiveContents, ArchiveFile } from './read';

export { ArchiveError, type ArchiveContents, DEFAULT_ARCHIVE_LIMITS, readArchive } from './read';

/** The cluster objects of the archive, parsed as the file source parses files (`kind: List` expanded). */
export function archiveInputs(a: ArchiveContents, namespace?: string): { inputs: RawInput[]; errors: LoadError[] } {
  const inputs: RawInput[] = [];
  const errors: LoadError[] = [...a.errors];
  for (const f of a.files) {
    if (f.role.role !== 'cluster') continue;
    const r = parseText(f.text, `${a.source}:${f.path}`, namespace);
    inputs.push(...r.inputs);
    errors.push(...r.errors);
  }
  return { inputs, errors };
}

/** POD.NS of every pod the archive holds a config dump for, sorted. */
export function archiveProxies(a: ArchiveContents): string[] {
  return [...new Set(a.files.flatMap((f) => (f.role.role === 'proxyDump' ? [`${f.role.pod}.${f.role.namespace}`] : [])))].sort();
}

function parseDump(a: ArchiveContents, f: ArchiveFile): unknown {
  try {
    return JSON.parse(f.text) as unknown;
  } catch (e) {
    throw new LiveError(502, 'archive', `${a.source}:${f.path}: the config dump is not JSON: ${(e as Error).message}`);
  }
}

/**
 * A LiveSource over the archive's dumps. `openedAt` (RFC 3339) is the `fetchedAt` of every dump: when the
 * archive was read. An unknown pod is 404 (stage `proxy`) naming it and the archive; a dump that is not JSON
 * is 502 (stage `archive`). `withIstiod`: must-gather's `config_dump_istiod.json` when the pod has one.
 */
export function archiveLiveSource(a: ArchiveContents, openedAt: string): LiveSource {
  const byProxy = new Map<string, { proxy?: ArchiveFile; istiod?: ArchiveFile }>();
  for (const f of a.files) {
    if (f.role.role !== 'proxyDump' && f.role.role !== 'istiodDump') continue;
    const id = `${f.role.pod}.${f.role.namespace}`;
    const e = byProxy.get(id) ?? {};
    if (f.role.role === 'proxyDump') e.proxy ??= f;
    else e.istiod ??= f;
    byProxy.set(id, e);
  }
  return {
    async fetch(proxyId: string, opts: LiveFetchOptions = {}): Promise<LiveDump> {
      const e = byProxy.get(proxyId);
      if (!e?.proxy) throw new LiveError(404, 'proxy', `pod "${proxyId}" has no config dump in ${a.source}`);
      const dump: LiveDump = {
        proxy: proxyId,
        source: a.kind,
        fetchedAt: openedAt,
        bytes: Buffer.byteLength(e.proxy.text, 'utf8'),
        configDump: parseDump(a, e.proxy),
      };
      if (opts.withIstiod && e.istiod) dump.istiodDump = parseDump(a, e.istiod);
      return dump;
    },
  };
}
