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
import { type DataPlaneOptions, DemoDataPlane } from './demo/dataPlane';
import { copyDemoOnBase, DEFAULT_DEMO_BASE, removeDemoCopy } from './demo/demoBase';
import { type MeshSnapshot, optionsOf, type TranslateOptions } from './model/mesh';
import { createCache } from './pipeline/cache';
import { changeEvent } from './impact/changes';
import { createXdsPlane } from './impact/xdsPlane';
import type { ResourceCache } from './pipeline/proxyResources';
import { FileSource } from './sources/file/fileSource';
import { ArchiveSource } from './archive/source';
import { resolveKubeConfig } from './sources/kube/kubeConfig';
import { KubeSource, type KubeSourceOptions } from './sources/kube/kubeSource';
import { MeshConfigFile } from './sources/file/meshConfigFile';
import type { BaseParts } from './sandbox/translateParts';
import { Store } from './sources/store';
import type { AdsServer, AdsServerOptions, ConnectionStatus } from './xds/server';
import type { AdsLimits } from './xds/limits';
import type { Source, SourceSink, SourceStatus } from './sources/types';
import { inputFileReader } from './sources/file/lines';
import type { CpuPool, CpuPoolOptions } from './isolate/pool';
import { poolContracts, storePool } from './isolate/runtimePool';
import { makeLiveSource } from './live/index';
import type { LiveSource } from './live/types';
import type { PortForwardOptions } from './live/portForwardSource';
import { AccessControl } from './auth/access';
import { AuditLog } from './auth/audit';
import { KubeReviews } from './auth/reviews';
import { authSettings, isMultiUser } from './auth/settings';
import { PrometheusSource } from './prometheus/source';

export interface MeshscopeRuntime {
  readonly config: RuntimeConfig;
  readonly mode: 'files' | 'kube' | 'demo';
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

/** Root the relative paths (the demo mesh) are resolved against: the repo, where `meshscope serve` runs Next. */
const rootDir = (): string => process.env.MESHSCOPE_ROOT ?? process.cwd();

export const demoMeshDir = (root = rootDir()): string => resolve(root, 'examples', 'demo');
/** Why the ambient profile is on for the embedded demo mesh (the start-up line and /api/runtime say it). */
export const DEMO_AMBIENT_REASON = 'the demo mesh (a 2026 cluster: istiod runs the ambient profile)';

/** The KubeSource options of a kube-mode config (kubeconfig, context, in-cluster, watched namespaces). */
export function kubeSourceOptions(config: RuntimeConfig): KubeSourceOptions {
  return {
    ...(config.kubeconfig ? { kubeconfig: config.kubeconfig } : {}),
    ...(config.context ? { context: config.context } : {}),
    ...(config.inCluster ? { inCluster: true } : {}),
    ...(config.namespaces?.length ? { namespaces: [...config.namespaces] } : {}),
  };
}

/**
 * The health part of a source status (state and errors, not the detail line with its object counts):
 * a change of it is worth an event of its own. Detail changes come with a snapshot change anyway.
 */
const statusSignature = (s: SourceStatus): string =>
  JSON.stringify([s.state, s.lastError ?? '', Object.entries(s.resources ?? {}).map(([k, r]) => [k, r.state, r.lastError ?? ''])]);

/**
 * The store as the sources see it, plus a call to `onStatus` when a source's shown status changes
 * (a cluster going away changes no snapshot, yet the UI's source line must follow it live).
 */
function statusNotifyingSink(store: Store, onStatus: () => void): SourceSink {
  const shown = new Map<string, string>();
  return {
    replace: (id, inputs, errors, opts) => store.replace(id, inputs, errors, opts),
    upsert: (id, input) => store.upsert(id, input),
    remove: (id, ref) => store.remove(id, ref),
    status(status) {
      store.status(status);
      const sig = statusSignature(status);
      if (shown.get(status.id) === sig) return;
      shown.set(status.id, sig);
      onStatus();
    },
  };
}

function makeSources(
  config: RuntimeConfig,
  mode: MeshscopeRuntime['mode'],
): { sources: Source[]; problems: SourceStatus[]; cleanup?: () => void } {
  const ns = config.namespace ? { namespace: config.namespace } : {};
  if (mode === 'files') {
    const sources: Source[] = [];
    if (config.config?.length) sources.push(new FileSource('file', config.config, { ...ns, watch: true }));
    // `--bug-report`: the archive's cluster objects (and, for /live and /drift, its pods' dumps: archive()).
    if (config.bugReport) sources.push(new ArchiveSource(config.bugReport, ns));
    return { sources, problems: [] };
  }
  if (mode === 'kube') {
    return { sources: [new KubeSource('kube', kubeSourceOptions(config))], problems: [] };
  }
  // `--demo-base 127.0.N`: the demo's files copied with their pods' loopback base moved (server/demo/demoBase.ts).
  if (config.demoBase && config.demoBase !== DEFAULT_DEMO_BASE) {
    try {
      const dir = copyDemoOnBase(demoMeshDir(), config.demoBase);
      return { sources: [new FileSource('demo', [dir], { ...ns, watch: true })], problems: [], cleanup: () => removeDemoCopy(dir) };
    } catch (e) {
      const lastError = `could not prepare the demo mesh on ${config.demoBase}.x: ${(e as Error).message}; using ${DEFAULT_DEMO_BASE}.x`;
      return {
        sources: [new FileSource('demo', [demoMeshDir()], { ...ns, watch: true })],
        problems: [{ id: 'demo-base', kind: 'demo', state: 'failing', lastError }],
      };
    }
  }
  return { sources: [new FileSource('demo', [demoMeshDir()], { ...ns, watch: true })], problems: [] };
}

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
  const { sources, problems, cleanup } = makeSources(config, mode);
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
  const plane = createXdsPlane(store, options, { ads: adsOpts, match: { findPodByIp } });
  const { ads, cache } = plane;
  let xds: XdsState = config.xdsPort === undefined ? { state: 'off' } : { state: 'starting' };
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
      xds,
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
    xds: () => xds,
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

/** ADS settings a caller may override (tests, benchmarks); the rest come from the environment. */
export type AdsOverrides = Partial<Pick<AdsServerOptions, 'log' | 'debounceMs' | 'maxDebounceMs' | 'pushConcurrency' | 'limits'>> & {
  /** CPU pool settings (tests: a short budget, a small queue, events). */
  cpu?: Partial<CpuPoolOptions>;
  /** Port-forward limits of `--live-config` (tests: a short timeout, no cache). */
  live?: Omit<PortForwardOptions, 'adminPort'>;
  /** Demo data plane settings (tests: a low rate, a short tick). */
  demo?: Partial<Pick<DataPlaneOptions, 'rate' | 'tickMs' | 'testerPercent' | 'deadlineMs' | 'window'>>;
};

const intEnv = (name: string): number | undefined => {
  const v = process.env[name];
  if (v === undefined || !/^\d+$/.test(v.trim())) return undefined;
  return Number(v.trim());
};

/** ADS limits from the environment (server/xds/limits.ts has the defaults and istiod's equivalents). */
const LIMIT_ENV: ReadonlyArray<[string, keyof AdsLimits]> = [
  ['MESHSCOPE_XDS_MAX_RECV_MSG_SIZE', 'maxRequestBytes'], // istiod ISTIO_GPRC_MAXRECVMSGSIZE
  ['MESHSCOPE_XDS_MAX_SEND_MSG_SIZE', 'maxResponseBytes'],
  ['MESHSCOPE_XDS_MAX_RESOURCE_NAMES', 'maxResourceNames'],
  ['MESHSCOPE_XDS_MAX_NODE_METADATA', 'maxNodeMetadataBytes'],
  ['MESHSCOPE_XDS_SEND_TIMEOUT', 'writeTimeoutMs'], // istiod PILOT_XDS_SEND_TIMEOUT
  ['MESHSCOPE_XDS_STALLED_STREAM_CLOSE', 'stalledStreamCloseMs'],
  ['MESHSCOPE_XDS_MAX_PENDING_SEND', 'maxPendingSendBytes'],
];

/**
 * Push settings (istiod's PILOT_DEBOUNCE_AFTER / PILOT_DEBOUNCE_MAX / PILOT_PUSH_THROTTLE), in ms:
 * MESHSCOPE_DEBOUNCE_AFTER (100), MESHSCOPE_DEBOUNCE_MAX (10000), MESHSCOPE_PUSH_THROTTLE (100); ADS
 * limits (LIMIT_ENV, bytes / counts / ms). The log prints one line per ADS connect and disconnect, and
 * NACKs at a bounded rate (`meshscope serve` shows them).
 */
function adsOptionsFromEnv(overrides: AdsOverrides): Partial<AdsServerOptions> {
  const limits: Partial<AdsLimits> = {};
  for (const [name, key] of LIMIT_ENV) {
    const v = intEnv(name);
    if (v !== undefined && (v > 0 || key === 'writeTimeoutMs' || key === 'stalledStreamCloseMs' || key === 'maxPendingSendBytes'))
      limits[key] = v;
  }
  const out: Partial<AdsServerOptions> = { log: (line) => console.log(line), limits: { ...limits, ...overrides.limits } };
  const after = intEnv('MESHSCOPE_DEBOUNCE_AFTER');
  const max = intEnv('MESHSCOPE_DEBOUNCE_MAX');
  const throttle = intEnv('MESHSCOPE_PUSH_THROTTLE');
  if (after !== undefined) out.debounceMs = after;
  if (max !== undefined) out.maxDebounceMs = max;
  if (throttle !== undefined && throttle > 0) out.pushConcurrency = throttle;
  const { limits: _limits, demo: _demo, cpu: _cpu, live: _live, ...rest } = overrides;
  return { ...out, ...rest };
}
