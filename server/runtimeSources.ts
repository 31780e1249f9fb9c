// How the runtime's sources are made from its config: the watched files, a bug-report archive, the cluster, or the
// embedded demo mesh; and the store as the sources see it (status changes notify the UI). No process state here.
import type { FirstLoad } from './sources/file/fileSet';
import { resolve } from 'node:path';
import type { RuntimeConfig } from './api/runtimeConfig';
import { ArchiveSource } from './archive/source';
import { copyDemoOnBase, DEFAULT_DEMO_BASE, removeDemoCopy } from './demo/demoBase';
import { FileSource } from './sources/file/fileSource';
import { KubeSource, type KubeSourceOptions } from './sources/kube/kubeSource';
import type { Store } from './sources/store';
import type { Source, SourceSink, SourceStatus } from './sources/types';

export type SourceMode = 'files' | 'kube' | 'demo';

/** Root the relative paths (the demo mesh) are resolved against: the repo, where `meshscope serve` runs Next. */
export const rootDir = (): string => process.env.MESHSCOPE_ROOT ?? process.cwd();

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
export function statusNotifyingSink(store: Store, onStatus: () => void): SourceSink {
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

export function makeSources(
  config: RuntimeConfig,
  mode: SourceMode,
  /** Big files' first loads on the runtime's parse pool (sources/file/pooledLoad poolFirstLoad). */
  firstLoad?: FirstLoad,
): { sources: Source[]; problems: SourceStatus[]; cleanup?: () => void } {
  const ns = config.namespace ? { namespace: config.namespace } : {};
  if (mode === 'files') {
    const sources: Source[] = [];
    if (config.config?.length)
      sources.push(new FileSource('file', config.config, { ...ns, watch: true, ...(firstLoad ? { firstLoad } : {}) }));
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
