// THE process-wide meshscope instance (sources → store → snapshots, caches, SSE subscribers, and the
// ADS server once wired). Next.js evaluates this module more than once per process (instrumentation
// bundle, route bundles, tsx), so the one instance lives on globalThis (stack-notes.md §1).
// This is the only module with process state; everything it calls is pure or instance-owned.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DemoApplier } from './api/apply/demo';
import { FilesApplier, watchedDirectory } from './api/apply/files';
import { KubeApplier } from './api/apply/kube';
import type { Applier } from './api/apply/types';
import { randomToken } from './api/auth';
import type { ApplyContext } from './api/sandboxApply';
import type { ContractsState } from './api/contracts';
import { bindAddress, hostPort, parseRuntimeConfig, sourceMode, ENV_VAR, type RuntimeConfig } from './api/runtimeConfig';
import type { MeshEvent } from './api/events';
import type { ApiContext, SyncStatus, XdsState } from './api/types';
import { isLoopbackAddress, ResponseCache } from './api/responseCache';
import { SnapshotMemo } from './api/snapshotMemo';
import { DemoDataPlane } from './demo/dataPlane';
import { type MeshSnapshot, optionsOf, type TranslateOptions } from './model/mesh';
import { createCache } from './pipeline/cache';
import { changeEvent } from './impact/changes';
import { createXdsPlane } from './impact/xdsPlane';
import { warmupFromEnv } from './impact/scopeWarmup';
import type { ResourceCache } from './pipeline/proxyResources';
import { ArchiveSource } from './archive/source';
import { resolveKubeConfig } from './sources/kube/kubeConfig';
import { KubeSource } from './sources/kube/kubeSource';
import { MeshConfigFile } from './sources/file/meshConfigFile';
import type { BaseParts } from './sandbox/translateParts';
import { Store } from './sources/store';
import type { AdsServer, ConnectionStatus } from './xds/server';
import type { Source, SourceStatus } from './sources/types';
import { inputFileReader } from './sources/file/lines';
import type { CpuPool } from './isolate/pool';
import { poolContracts, storePool } from './isolate/runtimePool';
import { serveParsePool } from './sources/file/parsePool';
import { poolFirstLoad } from './sources/file/pooledLoad';
import { makeLiveSource } from './live/index';
import type { LiveSource } from './live/types';
import { AccessControl } from './auth/access';
import { AuditLog } from './auth/audit';
import { KubeReviews } from './auth/reviews';
import { authSettings, isMultiUser } from './auth/settings';
import { PrometheusSource } from './prometheus/source';
import { type AdsOverrides, adsOptionsFromEnv } from './runtimeEnv';
import { DEMO_AMBIENT_REASON, kubeSourceOptions, makeSources, rootDir, type SourceMode, statusNotifyingSink } from './runtimeSources';

export type { AdsOverrides } from './runtimeEnv';
export { DEMO_AMBIENT_REASON, demoMeshDir, kubeSourceOptions } from './runtimeSources';

export interface MeshscopeRuntime {
  readonly config: RuntimeConfig;
  readonly mode: SourceMode;
  readonly options: TranslateOptions;
  readonly store: Store;
  readonly sources: readonly Source[];
  readonly cache: ResourceCache;
  /** Views derived from a snapshot (overview graph, analyze, Gateway API status), built once per snapshot. */
  readonly memo: SnapshotMemo;
  /** Serialised (and, when big, gzipped) API bodies of the current snapshot, bounded by bytes. */
  readonly responses: ResponseCache;
  /** Resolves once every source has started and the first snapshot is built (never rejects). */
  readonly ready: Promise<void>;
  readonly startedAt: string;
  snapshot(): MeshSnapshot;
  statuses(): SourceStatus[];
  /** Everything a transport-free API handler needs, for the current snapshot. */
  context(): ApiContext;
  /** The ADS server: off (no xdsPort), starting, listening on a port, or failing to bind. */
  xds(): XdsState;
  /** Connected xDS clients (what /debug/adsz shows). */
  adsConnections(): ConnectionStatus[];
  /** Settles once the ADS server listens or failed to (at once when there is no xdsPort), and the sources started. */
  readonly xdsSettled: Promise<XdsState>;
  /** The ADS server itself (tests and benchmarks drive pushes through it). */
  readonly ads: AdsServer;
  /** What the sandbox apply endpoints need: the applier of this source, the cluster gate and the token. */
  applyContext(): ApplyContext;
  /** `serve --contracts FILE`: the contracts and their results on the current snapshot (undefined without a file). */
  contracts(): Promise<ContractsState | undefined>;
  /**
   * Worker threads for work whose cost a request controls (simulate, sandbox evaluate, contracts), with
   * time budgets and a bounded queue (server/isolate/pool.ts): never on this thread, which serves ADS.
   */
  readonly cpu: CpuPool;
  /** `serve --bug-report`: the opened archive (a Source, and `liveSource()` over its pods' dumps). */
  archive(): ArchiveSource | undefined;
  /** The demo data plane (`serve` on the demo mesh, or `--demo-traffic`), when it runs. */
  demoTraffic(): DemoDataPlane | undefined;
  /** `--prometheus URL` / MESHSCOPE_PROMETHEUS_URL: observed traffic (its status is among statuses()); undefined when off. */
  prometheus(): PrometheusSource | undefined;
  /** Where pods' own Envoy config dumps come from (`--live-config`: port-forward; `--bug-report`: the archive); undefined when neither. */
  liveSource(): LiveSource | undefined;
  /** Why istiod's ambient profile is on (`--ambient`, or what the cluster says); undefined when off. */
  ambient(): string | undefined;
  /** Sign-in (`serve --auth token|header|openid`): who the caller is and what it may see; undefined with `--auth none`. */
  readonly access: AccessControl | undefined;
  /** Every sandbox apply and reset, by whom (JSON lines on stdout and `--audit-log`). */
  readonly audit: AuditLog;
  /** "proxy X changed" events; returns unsubscribe. */
  subscribe(listener: (e: MeshEvent) => void): () => void;
  stop(): Promise<void>;
}

type Global = typeof globalThis & { __meshscope?: MeshscopeRuntime };
const g = globalThis as Global;

function createRuntime(config: RuntimeConfig, configError?: string, overrides: AdsOverrides = {}): MeshscopeRuntime {
  const mode = sourceMode(config);
  // Options come from each snapshot's mesh config (ConfigMap istio-system/istio or --mesh-config): undefined = per snapshot.
  const options: TranslateOptions | undefined = undefined;
  const store = new Store({ debounceMs: 100 });
  // The embedded demo mesh is a 2026 cluster whose istiod runs the ambient profile (examples/demo/50-ambient.yaml).
  let ambientReason: string | undefined = config.ambient ? '--ambient' : mode === 'demo' ? DEMO_AMBIENT_REASON : undefined;
  if (ambientReason) store.setAmbient(true);
  const sandboxParts: BaseParts = createCache(512);
  const memo = new SnapshotMemo();
  // On loopback (the default bind) big bodies skip the HTTP server's per-request gzip (api/responseCache.ts).
  const responses = new ResponseCache({ compressBig: !isLoopbackAddress(bindAddress(config)) });
  // Big --config files' first loads (start, whole-file reloads) on a parse worker and this thread together.
  const parse = serveParsePool();
  const firstLoad = parse ? poolFirstLoad(parse.pool, parse.minBytes, (line) => console.log(`meshscope: ${line}`)) : undefined;
  const { sources, problems, cleanup } = makeSources(config, mode, firstLoad);
  // `--mesh-config FILE` replaces the ConfigMap istio-system/istio (read and watched; last good text kept).
  const meshFile = config.meshConfig ? new MeshConfigFile(config.meshConfig, store, { watch: true }) : undefined;
  if (configError) problems.push({ id: 'config', kind: 'file', state: 'failing', lastError: configError });
  const listeners = new Set<(e: MeshEvent) => void>();
  // A status-only change: no proxy changed, but the lists (sources, errors) should be refetched.
  const sink = statusNotifyingSink(store, () => {
    if (listeners.size === 0) return;
    const snap = store.snapshot();
    const event: MeshEvent = { version: snap.version, proxies: [], types: [], endpointsOnly: false, errors: snap.errors.length };
    for (const l of listeners) l(event);
  });
  const startedAt = new Date().toISOString();

  // Entries of older snapshot versions can never hit again: drop them when a new snapshot lands.
  const unsubscribeCache = store.onChange(() => {
    sandboxParts.clear();
    responses.clear();
  });
  // Live events: which proxies a change may affect, from the changed objects and the two snapshots
  // (impact/affected.ts) — nothing is translated here, however many proxies the mesh has.
  let lastSnapshot: MeshSnapshot | undefined;
  const unsubscribeStore = store.onChange((snap, info) => {
    const prev = lastSnapshot;
    lastSnapshot = snap;
    if (listeners.size === 0) return;
    const event = changeEvent(prev, snap, info, optionsOf(snap));
    for (const l of listeners) l(event);
  });

  const ready = (async () => {
    await meshFile?.start().catch(() => undefined);
    await Promise.all(
      sources.map((s) =>
        s.start(sink).catch((e: unknown) =>
          store.status({
            id: s.id,
            kind: mode === 'kube' ? 'kube' : mode === 'demo' ? 'demo' : 'file',
            state: 'failing',
            lastError: String(e),
          }),
        ),
      ),
    );
    // Kube: istiod's ambient profile is on when the cluster says so (sources/kube/ambientProbe.ts), unless --ambient did.
    if (!ambientReason)
      for (const s of sources) {
        const why = s instanceof KubeSource ? await s.detectAmbient().catch(() => undefined) : undefined;
        if (why) {
          ambientReason = `detected in the cluster (${why})`;
          store.setAmbient(true);
          break;
        }
      }
    store.flush();
  })().catch(() => undefined);

  // The ADS server (gRPC, SotW + Delta) on config.xdsPort: bound in the background; a bind failure
  // is a source-style status, never a crash. Every store change requests a (debounced) push: EDS only
  // for endpoint-only changes; connections whose resources did not change are sent nothing.
  const adsOpts = adsOptionsFromEnv(overrides);
  // DESIGN.md §3 (a contract): a client whose POD.NS is unknown falls back to its IP in the registry, with
  // istiod's rule for it (ENABLE_PROXY_FIND_POD_BY_IP: first IP; several pods → the one in its namespace).
  // istiod turned that flag off by default (istio/istio#56502); MESHSCOPE_PROXY_FIND_POD_BY_IP=false does too.
  const findPodByIp = !/^(0|false)$/i.test(process.env.MESHSCOPE_PROXY_FIND_POD_BY_IP ?? '');
  // The ADS generator, its resource cache and the store → push wiring (impact/xdsPlane.ts; the push bench runs the same).
  // The Sidecar scopes are built ahead of the first client while none is connected (MESHSCOPE_XDS_WARMUP=0: not).
  const warmup = config.xdsPort !== undefined && warmupFromEnv();
  const plane = createXdsPlane(store, options, { ads: adsOpts, match: { findPodByIp }, warmup, sourcesLoaded: ready });
  const { ads, cache } = plane;
  let xds: XdsState = config.xdsPort === undefined ? { state: 'off' } : { state: 'starting' };
  // The ADS state healthz, the API and `rt.xds()` report: with the scopes' warm-up while it listens.
  const xdsState = (): XdsState => (xds.state === 'listening' && warmup ? { ...xds, warmup: plane.warmup.state() } : xds);
  // Loopback unless `--address` says otherwise (DESIGN.md §6), like the HTTP server.
  const adsHost = bindAddress(config);
  const adsStarted =
    config.xdsPort === undefined
      ? Promise.resolve()
      : ads.start(config.xdsPort, adsHost).then(
          (port) => void (xds = { state: 'listening', port }),
          (e: unknown) =>
            void (xds = {
              state: 'failing',
              error: `ADS server could not listen on ${hostPort(adsHost, config.xdsPort ?? 0)}: ${(e as Error).message}`,
            }),
        );
  // `--bug-report`: the archive's istiod syncz entries (source "bug-report") after meshscope's own clients.
  const archiveSource = sources.find((s): s is ArchiveSource => s instanceof ArchiveSource);
  const sync = (): readonly SyncStatus[] => {
    const own = ads.syncz() as SyncStatus[];
    const offline = archiveSource?.syncz() ?? [];
    return offline.length === 0 ? own : [...own, ...offline];
  };

  // The demo data plane follows every snapshot once the ADS server listens (its clients dial it).
  const demo =
    config.demoTraffic === true
      ? new DemoDataPlane(options, {
          protoPath: resolve(rootDir(), 'proto', 'echo.proto'),
          adsAddress: () => (xds.state === 'listening' ? `127.0.0.1:${xds.port}` : undefined),
          ...(config.demoRate !== undefined ? { rate: config.demoRate } : {}),
          ...(overrides.demo ?? {}),
          log: (line) => console.log(line),
        })
      : undefined;
  const unsubscribeDemo = demo ? store.onChange((snap) => void demo.update(snap)) : () => undefined;
  if (demo) void Promise.all([ready, adsStarted]).then(() => demo.update(store.snapshot()));

  // Observed traffic: an optional source; its outage only degrades the traffic views (server/prometheus).
  const promUrl = config.prometheus ?? process.env.MESHSCOPE_PROMETHEUS_URL?.trim();
  const prometheus = promUrl ? new PrometheusSource(promUrl) : undefined;
  prometheus?.start();

  const applier = makeApplier(config, mode, store);
  const auth = authSettings(config);
  // Reviews ask the cluster meshscope reads; a multi-user mode without one cannot sign anyone in (serve refuses it).
  const access =
    isMultiUser(auth) && mode === 'kube'
      ? new AccessControl(auth, new KubeReviews(() => resolveKubeConfig(kubeSourceOptions(config)).kc))
      : undefined;
  const audit = new AuditLog(auth.auditLog);
  const token = applyToken(config);
  const cpu = storePool(store, rootDir(), overrides.cpu);
  const contracts = poolContracts(config.contracts, cpu, () => store.snapshot().version);
  const live = makeLiveSource(config, mode, () => resolveKubeConfig(kubeSourceOptions(config)).kc, overrides.live);

  const rt: MeshscopeRuntime = {
    config,
    mode,
    get options() {
      return optionsOf(store.snapshot());
    },
    store,
    sources,
    cache,
    memo,
    responses,
    ready,
    startedAt,
    snapshot: () => store.snapshot(),
    statuses: () => [...problems, ...store.statuses(), ...(demo ? [demo.status()] : []), ...(prometheus ? [prometheus.status()] : [])],
    context: () => ({
      snapshot: store.snapshot(),
      inputs: () => store.inputs(),
      sandboxParts,
      options: optionsOf(store.snapshot()),
      cache,
      statuses: rt.statuses(),
      sync,
      xds: xdsState(),
      now: new Date().toISOString(),
      readText: inputFileReader(() => store.inputs()),
      memo,
    }),
    subscribe(listener) {
      if (!lastSnapshot) lastSnapshot = store.snapshot();
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    demoTraffic: () => demo,
    prometheus: () => prometheus,
    archive: () => sources.find((s): s is ArchiveSource => s instanceof ArchiveSource),
    // `--live-config` (port-forward), else the `--bug-report` archive's pod dumps.
    liveSource: () => live ?? rt.archive()?.liveSource(),
    ambient: () => ambientReason,
    access,
    audit,
    applyContext: () => ({
      applier,
      allowApply: config.allowApply === true,
      token,
      signIn: access !== undefined,
      audit: (e) => audit.record({ time: new Date().toISOString(), ...e }),
    }),
    contracts: async () => contracts?.(),
    cpu,
    xds: xdsState,
    // Kube: the start-up line says whether the cluster turned the ambient profile on: it waits for the probe.
    xdsSettled: (mode === 'kube' ? Promise.all([adsStarted, ready]) : adsStarted).then(() => xds),
    adsConnections: () => ads.connections(),
    ads,
    async stop() {
      unsubscribeCache();
      unsubscribeStore();
      unsubscribeDemo();
      prometheus?.stop();
      await demo?.stop();
      await cpu.close();
      await parse?.pool.close();
      await adsStarted;
      await plane.close();
      listeners.clear();
      meshFile?.stop();
      await Promise.all(sources.map((s) => s.stop().catch(() => undefined)));
      cleanup?.();
      store.close();
      if (g.__meshscope === rt) delete g.__meshscope;
    },
  };
  return rt;
}

function makeApplier(config: RuntimeConfig, mode: MeshscopeRuntime['mode'], store: Store): Applier {
  if (mode === 'kube') return new KubeApplier(() => resolveKubeConfig(kubeSourceOptions(config)).kc);
  if (mode === 'files') return new FilesApplier(watchedDirectory(config.config ?? []), () => store.inputs());
  return new DemoApplier(store);
}

/**
 * The apply bearer token: --auth-token-file, else MESHSCOPE_AUTH_TOKEN, else the random one `serve` made
 * and printed (MESHSCOPE_APPLY_TOKEN), else a random one of this process (logged once: nothing else knows it).
 */
function applyToken(config: RuntimeConfig): string {
  // `serve` already read --auth-token-file / MESHSCOPE_AUTH_TOKEN (it also protects UI and API: proxy.ts).
  if (config.authToken) return config.authToken;
  if (config.authTokenFile) {
    try {
      const t = readFileSync(config.authTokenFile, 'utf8').trim();
      if (t) return t;
    } catch (e) {
      console.error(`meshscope: cannot read --auth-token-file ${config.authTokenFile}: ${(e as Error).message}; apply is refused`);
    }
    return '';
  }
  const env = process.env.MESHSCOPE_AUTH_TOKEN?.trim() || process.env.MESHSCOPE_APPLY_TOKEN?.trim();
  if (env) return env;
  const t = randomToken();
  console.log(`meshscope: sandbox apply token (this process only): ${t}`);
  return t;
}

/** The running instance, started on first use (from instrumentation register(), a route, or a page). */
export function getRuntime(): MeshscopeRuntime {
  if (!g.__meshscope) {
    const { config, error } = parseRuntimeConfig(process.env[ENV_VAR]);
    g.__meshscope = createRuntime(config, error);
  }
  return g.__meshscope;
}

/** Starts the runtime without waiting for the sources (instrumentation must not block on them). */
export function startRuntime(): void {
  getRuntime();
}

/** Waits for the first snapshot, at most `ms` (pages render what there is after that). */
export async function readyRuntime(ms = 5_000): Promise<MeshscopeRuntime> {
  const rt = getRuntime();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([rt.ready, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  if (timer) clearTimeout(timer);
  return rt;
}

/** For tests: a runtime from an explicit config, not installed globally. */
export const createRuntimeForTest = (config: RuntimeConfig, overrides?: AdsOverrides): MeshscopeRuntime =>
  createRuntime(config, undefined, overrides);
