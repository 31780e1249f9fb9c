#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meshscopeCacheDir, unpackDebianPackage } from './debianPackage.mjs';

const TRIPLES = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

export function jemallocCacheDir() {
  return meshscopeCacheDir('jemalloc');
}

const cachedLib = () => join(jemallocCacheDir(), 'usr', 'lib', TRIPLES[process.arch] ?? 'none', 'libjemalloc.so.2');

/** The cached library's path, fetching the package first when it is not there; undefined (with why on stderr) when it cannot be had. */
export function ensureJemalloc({ log = (line) => console.error(line) } = {}) {
  if (existsSync(cachedLib())) return cachedLib();
  if (process.platform !== 'linux' || !TRIPLES[process.arch]) {
    log(`jemalloc: no Debian package for ${process.platform}/${process.arch}`);
    return undefined;
  }
  const lib = join('usr', 'lib', TRIPLES[process.arch], 'libjemalloc.so.2');
  return unpackDebianPackage('libjemalloc2', jemallocCacheDir(), lib, log) ? cachedLib() : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const lib = ensureJemalloc();
  if (!lib) process.exit(1);
  console.log(lib);
}
