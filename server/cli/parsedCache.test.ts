// The CLI's cache of validated files (parsedCache.ts): a build from cached files is the build from the files
// themselves (the reference: loadPaths + buildSnapshot with no cache at all), and an entry is trusted only for
// the same text, file name, namespace and build; anything unreadable is ignored without a crash.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../model/snapshot';
import { bookinfo } from '../testing/paths';
import { loadPaths } from '../sources/file/loadPaths';
import { resultCache } from '../sources/file/parseCache';
import { rawKey } from '../model/parse/objects';
import { ParsedFileCache, type StoredFile, thinInput } from './parsedCache';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'meshscope-parsedcache-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const isStored = (v: unknown): v is StoredFile => typeof v === 'object' && v !== null;
const cacheIn = (dir: string, buildId = 'build-1') =>
  new ParsedFileCache(
    resultCache({
      dir,
      buildId,
      minChars: 0,
      valid: (v): v is StoredFile => isStored(v) && Array.isArray((v as StoredFile).parsed),
    }),
  );

/** A multi-document file with what parseOne treats specially: no creationTimestamp, an invalid object, an unknown kind, a duplicate. */
const meshText = (weight = 80) => `apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: shop}
spec:
  selector: {app: reviews}
  ports: [{name: http, port: 9080}]
---
apiVersion: v1
kind: Pod
metadata: {name: reviews-v1-abc, namespace: shop, labels: {app: reviews, version: v1}}
spec:
  containers: [{name: app, image: reviews}, {name: istio-proxy, image: proxyv2}]
status: {podIP: 10.0.0.7, podIPs: [{ip: 10.0.0.7}]}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: shop, creationTimestamp: "2024-01-02T03:04:05Z"}
spec:
  hosts: [reviews]
  http:
  - route:
    - destination: {host: reviews, subset: v1}
      weight: ${weight}
    - destination: {host: reviews, subset: v2}
      weight: ${100 - weight}
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: broken, namespace: shop}
spec:
  host: reviews
  trafficPolicy: {loadBalancer: {simple: NOT_A_POLICY}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: shop}
---
apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: shop}
spec:
  ports: [{name: http, port: 9080}]
`;

/**
 * loadPaths + buildSnapshot through `cache` (then saved), or with no cache at all. The inputs as a build reads
 * them once parsed (thinInput: a cached file's raw objects are kept thin).
 */
function load(paths: string[], cache?: ParsedFileCache, namespace?: string) {
  const loaded = loadPaths(paths, { ...(namespace ? { namespace } : {}), ...(cache ? { readResult: cache.readResult } : {}) });
  const snapshot = buildSnapshot(loaded.inputs, { version: 1, extraErrors: loaded.errors, ...(cache ? { cache } : {}) });
  cache?.save();
  return { inputs: loaded.inputs.map(thinInput), errors: loaded.errors, snapshot };
}

describe('ParsedFileCache', () => {
  it('a warm build equals a build with no cache: objects, located errors, synthetic creation times (and the first build too)', () => {
    const files = temp();
    const a = join(files, 'mesh.yaml');
    const b = join(files, 'more.yaml');
    writeFileSync(a, meshText());
    writeFileSync(b, meshText(50).replaceAll('namespace: shop', 'namespace: shop2'));
    const reference = load([a, b]);
    expect(reference.snapshot.errors.some((e) => e.file === a && e.doc === 3 && e.path !== undefined)).toBe(true);
    const dir = temp();
    const cold = cacheIn(dir);
    expect(load([a, b], cold)).toStrictEqual(reference);
    expect(cold.hits).toBe(0);
    // b is read first now: every input's position (and so its synthetic creation time) moves.
    const reordered = load([b, a]);
    const warm = cacheIn(dir);
    expect(load([b, a], warm)).toStrictEqual(reordered);
    expect(warm.hits).toBe(2);
  });

  it('Bookinfo (platform + networking) through the cache equals the build without it', () => {
    const paths = [bookinfo('platform'), bookinfo('networking')];
    const reference = load(paths);
    expect(reference.snapshot.proxies.length).toBeGreaterThan(5);
    const dir = temp();
    load(paths, cacheIn(dir));
    const warm = cacheIn(dir);
    expect(load(paths, warm)).toStrictEqual(reference);
    expect(warm.hits).toBeGreaterThan(5);
  });

  it('a changed text, another build id, another file name or namespace is a miss', () => {
    const files = temp();
    const f = join(files, 'mesh.yaml');
    writeFileSync(f, meshText());
    const dir = temp();
    load([f], cacheIn(dir));
    const same = cacheIn(dir);
    load([f], same);
    expect(same.hits).toBe(1);

    writeFileSync(f, meshText(70));
    const changed = cacheIn(dir);
    expect(load([f], changed)).toStrictEqual(load([f]));
    expect(changed.hits).toBe(0);
    expect(load([f]).snapshot.virtualServices[0]?.spec.http?.[0]?.route?.[0]?.weight).toBe(70);

    const newBuild = cacheIn(dir, 'build-2');
    expect(load([f], newBuild)).toStrictEqual(load([f]));
    expect(newBuild.hits).toBe(0);

    const other = join(files, 'other.yaml');
    writeFileSync(other, meshText(70));
    const renamed = cacheIn(dir);
    expect(load([other], renamed)).toStrictEqual(load([other]));
    expect(renamed.hits).toBe(0);

    const withNs = cacheIn(dir);
    expect(load([f], withNs, 'elsewhere')).toStrictEqual(load([f], undefined, 'elsewhere'));
    expect(withNs.hits).toBe(0);
  });

  it('a corrupt or truncated entry is ignored (no crash), removed, and written again', () => {
    const files = temp();
    const f = join(files, 'mesh.yaml');
    writeFileSync(f, meshText());
    const reference = load([f]);
    const dir = temp();
    load([f], cacheIn(dir));
    const [entry] = readdirSync(dir);
    for (const junk of ['not a V8 serialization', '']) {
      writeFileSync(join(dir, entry!), junk);
      const c = cacheIn(dir);
      expect(load([f], c)).toStrictEqual(reference);
      expect(c.hits).toBe(0);
      const again = cacheIn(dir);
      expect(load([f], again)).toStrictEqual(reference);
      expect(again.hits).toBe(1);
    }
  });

  it('a thin input keeps what a build reads besides parseOne: the store key, kind and metadata; a ConfigMap whole', () => {
    const files = temp();
    const f = join(files, 'mesh.yaml');
    const meshConfigMap = `apiVersion: v1
kind: ConfigMap
metadata: {name: istio, namespace: istio-system}
data:
  mesh: |-
    defaultConfig: {discoveryAddress: istiod-canary.istio-system.svc:15012}
`;
    writeFileSync(f, `${meshText()}---\n${meshConfigMap}---\napiVersion: v1\nkind: Service\nmetadata: [not, a, mapping]\n`);
    const { inputs } = loadPaths([f]);
    expect(inputs.length).toBe(8);
    for (const input of inputs) {
      const thin = thinInput(input);
      expect(rawKey(thin.object)).toBe(rawKey(input.object));
      expect(thin.origin).toEqual(input.origin);
      if (input.object.kind === 'ConfigMap' || Array.isArray(input.object.metadata)) expect(thin).toBe(input);
      else expect(Object.keys(thin.object).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    }
    // The mesh config is read from the thin inputs as from the whole ones.
    const dir = temp();
    load([f], cacheIn(dir));
    const warm = cacheIn(dir);
    const cached = load([f], warm);
    expect(warm.hits).toBe(1);
    expect(cached).toStrictEqual(load([f]));
    expect(cached.snapshot.mesh.config.defaultConfig?.discoveryAddress).toBe('istiod-canary.istio-system.svc:15012');
  });

  it('an entry that does not match its file (parsed results missing) is not trusted', () => {
    const files = temp();
    const f = join(files, 'mesh.yaml');
    writeFileSync(f, meshText());
    const dir = temp();
    const store = resultCache<StoredFile>({
      dir,
      buildId: 'build-1',
      minChars: 0,
      valid: (v): v is StoredFile => isStored(v) && (v as StoredFile).parsed.length === (v as StoredFile).result.inputs.length,
    });
    const loaded = loadPaths([f]);
    store.put(f, meshText(), undefined, { result: loaded, parsed: [] });
    const c = new ParsedFileCache(store);
    expect(load([f], c)).toStrictEqual(load([f]));
    expect(c.hits).toBe(0);
  });
});
