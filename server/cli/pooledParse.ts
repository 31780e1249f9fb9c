// The CLI's cold loads on the second core (issue 24 goal 6): the big multi-document files and Lists of
// --config that no cache answers are parsed and validated by a parse worker and this thread together
// (../sources/file/pooledLoad); loadPaths then takes their results through its ResultReader and the snapshot
// build their ParsedOnes through its SnapshotCache. Same objects, order and errors as the in-thread load (a
// file with any error is parsed in-thread as before). The run is started by ./earlyParse before the command's
// modules load, so the worker starts parsing while this thread is busy loading them; loadMesh joins it.
import { readFileSync, statSync } from 'node:fs';
import { SnapshotCache } from '../model/snapshotCache';
import { type ParsedOne, parseOne, restamp } from '../model/parse/objects';
import { expandPaths, type ResultReader } from '../sources/file/loadPaths';
import { DEFAULT_FILE_LIMITS, type LoadResult } from '../sources/file/parseFile';
import { type PooledRun, startPooledLoads } from '../sources/file/pooledLoad';
import { PARSE_POOL_MIN_FILE_BYTES, type ParsePool } from '../sources/file/parsePool';
import type { RawInput } from '../sources/types';
import { cliParsedFileCache } from './parsedCache';

export interface PooledParse {
  /** loadPaths' ResultReader for the files the pool loaded (`next`, else the in-thread parse: what answers the others). */
  reader(next?: ResultReader): ResultReader;
  /** The ParsedOnes the workers computed, by input. */
  parsed: ReadonlyMap<RawInput, ParsedOne>;
}

/** A started run: the texts it reads, and its join. */
export interface StartedParse {
  namespace: string | undefined;
  finish(): Promise<PooledParse | undefined>;
}

/**
 * Starts the pooled load of the big files under `paths` that the CLI's cache of validated files does not
 * answer; undefined when they are too few or too small to pay (nothing started).
 */
export function startPooledParse(
  paths: readonly string[],
  namespace: string | undefined,
  pool: ParsePool,
  minBytes: number,
  log: (line: string) => void,
): StartedParse | undefined {
  const limits = DEFAULT_FILE_LIMITS;
  const cache = cliParsedFileCache();
  const texts: Array<{ file: string; text: string }> = [];
  for (const file of expandPaths([...paths]).files) {
    if (file === '-') continue;
    try {
      const size = statSync(file).size;
      if (size < PARSE_POOL_MIN_FILE_BYTES || size > limits.maxFileBytes) continue;
      const text = readFileSync(file, 'utf8');
      if (cache?.has(file, text, namespace)) continue;
      texts.push({ file, text });
    } catch {
      // loadPaths reads it again and reports why it cannot.
    }
  }
  const run: PooledRun | undefined = startPooledLoads(texts, { namespace, limits, pool, minBytes, validate: true, log });
  if (!run) return undefined;
  return {
    namespace,
    async finish() {
      const loads = await run.finish();
      const j = loads.jobs;
      // MESHSCOPE_PARSE_POOL_STATS=1: one line saying how the work was shared (docs/parse-pool.md).
      if (process.env.MESHSCOPE_PARSE_POOL_STATS === '1')
        log(
          `parse pool: ${j.worker} jobs in a worker, ${j.local} on the main thread (${j.failed} failed in the worker); ${loads.files.size} of ${texts.length} files`,
        );
      const byFile = new Map<string, { text: string; result: LoadResult }>();
      for (const { file, text } of texts) {
        const l = loads.files.get(file);
        if (l) byFile.set(file, { text, result: l.result });
      }
      return {
        parsed: loads.parsed,
        reader: (next) => (file, text, ns, load) => {
          const hit = byFile.get(file);
          if (hit && hit.text === text && ns === namespace) return hit.result;
          return next ? next(file, text, ns, load) : load();
        },
      };
    },
  };
}

/** A snapshot build's cache whose parse answers from ParsedOnes computed by a parse worker (re-stamped for their position). */
export class PreParsedCache extends SnapshotCache {
  constructor(private readonly pre: ReadonlyMap<RawInput, ParsedOne>) {
    super();
  }

  override readonly parse = (input: RawInput, index: number): ParsedOne => {
    const hit = this.pre.get(input);
    return hit ? restamp(hit, index) : parseOne(input, index);
  };
}
