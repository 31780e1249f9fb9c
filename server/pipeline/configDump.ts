// The ConfigDump for one proxy, as istiod's /debug/config_dump and `meshscope translate` print it.
import { buildConfigDump, DUMP_SECTIONS, type DumpSection } from '../envoy/configDump';
import type { EnvoyJson } from '../envoy/encode';
import { optionsOf, type LoadError, type MeshSnapshot, type TranslateOptions } from '../model/mesh';
import type { EnvoyFilterPatchReport, RouteProvenance } from '../translate/types';
import { dumpResources } from './dumpResources';
import { proxyResources, type ResourceCache } from './proxyResources';

/** `--type` / `?type=`: one section or all of them. */
export type DumpType = DumpSection | 'all';
export const DUMP_TYPES: readonly DumpType[] = ['listeners', 'routes', 'clusters', 'endpoints', 'all'];

export const isDumpType = (s: string): s is DumpType => (DUMP_TYPES as readonly string[]).includes(s);

export interface ConfigDumpOptions {
  type?: DumpType;
  options?: TranslateOptions;
  cache?: ResourceCache;
  /** RFC 3339; only when the caller has a clock to offer (the CLI and tests print none: deterministic). */
  lastUpdated?: string;
}

export interface ConfigDumpResult {
  dump: EnvoyJson;
  errors: LoadError[];
  /** Which VirtualService rule produced each route of the dump (from translation). */
  provenance: readonly RouteProvenance[];
  /** Per EnvoyFilter config patch: applied or not, where, or why not (empty when none concerns the proxy). */
  envoyFilters: readonly EnvoyFilterPatchReport[];
}

/** undefined when the proxy is unknown. */
export function configDumpFor(snapshot: MeshSnapshot, proxyId: string, opts: ConfigDumpOptions = {}): ConfigDumpResult | undefined {
  const options = opts.options ?? optionsOf(snapshot);
  // Without a cache nothing keeps the encoded resources: their dump JSON is made without the protobuf round trip.
  const res = opts.cache ? proxyResources(snapshot, proxyId, options, opts.cache) : dumpResources(snapshot, proxyId, options);
  if (!res) return undefined;
  const type = opts.type ?? 'all';
  const sections: readonly DumpSection[] = type === 'all' ? DUMP_SECTIONS : [type];
  const dump = buildConfigDump(
    {
      version: String(snapshot.version),
      ...(opts.lastUpdated ? { lastUpdated: opts.lastUpdated } : {}),
      listeners: res.listeners,
      routes: res.routes,
      clusters: res.clusters,
      endpoints: res.endpoints,
    },
    sections,
  );
  return { dump, errors: res.errors, provenance: res.provenance, envoyFilters: res.envoyFilters ?? [] };
}

/** Pieces are joined and handed to `write` once they hold about this many characters. */
const CHUNK_CHARS = 1 << 20;
/** Levels of arrays / objects printed here; anything deeper is one JSON.stringify (a dump's resource is at level 4). */
const STREAM_DEPTH = 4;

/**
 * Writes `JSON.stringify(value, null, 2) + '\n'` (the CLI's `writeJson`), character for character, in pieces of
 * about 1 Mi characters instead of one string: a gateway's dump is ~20 MB, and one string of it (plus its one
 * UTF-8 buffer) costs fresh memory the size of the output. The outer arrays and objects are printed here; each
 * value below them is `JSON.stringify(v, null, 2)` with its line breaks re-indented to its depth, which is the
 * same text, since JSON.stringify never puts a raw line break inside a string (it prints `\n`).
 */
export function writeJsonPieces(value: unknown, write: (text: string) => void): void {
  const pieces: string[] = [];
  let size = 0;
  const put = (s: string) => {
    pieces.push(s);
    size += s.length;
    if (size >= CHUNK_CHARS) flush();
  };
  const flush = () => {
    if (pieces.length > 0) write(pieces.join(''));
    pieces.length = 0;
    size = 0;
  };
  const indent = (depth: number) => '  '.repeat(depth);
  /** Arrays and plain objects are printed here down to STREAM_DEPTH; anything else is one JSON.stringify. */
  const streamed = (v: unknown, depth: number): v is object =>
    depth < STREAM_DEPTH &&
    v !== null &&
    typeof v === 'object' &&
    typeof (v as { toJSON?: unknown }).toJSON !== 'function' &&
    (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
  /** JSON.stringify's text of a value not streamed, re-indented to `depth`; undefined when it prints nothing. */
  const leaf = (v: unknown, depth: number): string | undefined => {
    const s = JSON.stringify(v, null, 2) as string | undefined;
    return s === undefined || depth === 0 ? s : s.replaceAll('\n', `\n${indent(depth)}`);
  };
  const emit = (v: object, depth: number): void => {
    const pad = indent(depth + 1);
    if (Array.isArray(v)) {
      if (v.length === 0) {
        put('[]');
        return;
      }
      for (let i = 0; i < v.length; i++) {
        put(`${i > 0 ? ',' : '['}\n${pad}`);
        const item: unknown = v[i];
        // An array slot JSON.stringify cannot print (undefined, a function, a hole) is null.
        if (streamed(item, depth + 1)) emit(item, depth + 1);
        else put(leaf(item, depth + 1) ?? 'null');
      }
      put(`\n${indent(depth)}]`);
      return;
    }
    let first = true;
    for (const [k, item] of Object.entries(v)) {
      // A property JSON.stringify leaves out (undefined, a function, a symbol, a toJSON giving undefined) is left out.
      const text = streamed(item, depth + 1) ? '' : leaf(item, depth + 1);
      if (text === undefined) continue;
      put(`${first ? '{' : ','}\n${pad}${JSON.stringify(k)}: `);
      first = false;
      if (text === '') emit(item as object, depth + 1);
      else put(text);
    }
    put(first ? '{}' : `\n${indent(depth)}}`);
  };
  if (streamed(value, 0)) emit(value, 0);
  else put(leaf(value, 0) ?? 'undefined');
  put('\n');
  flush();
}
