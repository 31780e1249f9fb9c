// The store: raw objects of every source by key, merged (later-registered source wins on a clash),
// debounced into versioned immutable snapshots (a batch its source already debounced, `replace(..., { settled })`,
// is published on the next turn instead). A deep-equal put is a no-op. Never throws on bad input:
// errors land in snapshot().errors, and an object whose new version is invalid keeps its last good version
// (reported "stale: last good from <time>"). The same object twice in one source's replace() is a located
// error naming both origins; the later one wins (files come in path order, so the lexicographically last
// file wins, as with `kubectl apply -f DIR`). A snapshot build that throws keeps the previous snapshot
// serving and shows the failure in every source's status until a build succeeds.
import type { LoadError, MeshSnapshot } from '../model/mesh';
import { validateRaw } from '../model/parse/objects';
import { type BuildSnapshotOptions, buildSnapshot } from '../model/snapshot';
import { SnapshotCache } from '../model/snapshotCache';
import { warmPodPatch } from '../model/snapshotIncremental';
import { redactSecret } from '../model/secrets';
import type { MeshConfigOverride } from '../model/parse/meshSource';
import { MESH_CONFIGMAP_NAME, MESH_CONFIGMAP_NAMESPACE } from '../model/meshConfig';
import { endpointsOnlyChange, rawKey, sameObject } from './storeKeys';
import type { RawInput, ReplaceOptions, SourceSink, SourceStatus } from './types';

export interface StoreChange {
  version: number;
  /** Keys (`group/version/kind/namespace/name`) changed since the previous snapshot. */
  changed: string[];
  endpointsOnly: boolean;
}

/** A snapshot's build inputs, without the store's per-object cache (see Store.buildSpec). */
export interface SnapshotSpec {
  inputs: readonly RawInput[];
  options: Omit<BuildSnapshotOptions, 'cache'>;
}

export interface StoreOptions {
  debounceMs?: number;
  maxDelayMs?: number;
  domainSuffix?: string;
  /** Clock for "last good from <time>" (tests). */
  now?: () => Date;
  /**
   * replace() of a list that differs from the source's last one only by objects replaced in place (same
   * position, same key) touches just those (default true; false: every list is merged whole, as tests compare).
   */
  inPlaceReplace?: boolean;
}

interface SourceState {
  objects: Map<string, RawInput>;
  /** Objects whose key could not be computed (no kind/name): kept so the snapshot reports them. */
  unkeyed: RawInput[];
  errors: readonly LoadError[];
  /** Last valid version per key (and when it was first seen valid), used when the current version fails validation. */
  lastGood: Map<string, { input: RawInput; at: string }>;
  /** Errors found by replace() itself (duplicates). */
  own: LoadError[];
  /** Keys this source removes from the sources registered before it (an overlay's deletions). */
  hidden: Set<string>;
  /** The list the last replace() was given, while `objects` is exactly what it made (upsert/remove clear it). */
  given?: readonly RawInput[];
}

/** Most objects a replace() may have changed in place and still be applied position by position. */
const IN_PLACE_MAX = 64;

export class Store implements SourceSink {
  private readonly debounceMs: number;
  private readonly maxDelayMs: number;
  private readonly domainSuffix: string | undefined;
  private readonly sources = new Map<string, SourceState>();
  private readonly statusById = new Map<string, SourceStatus>();
  private readonly listeners = new Set<(snap: MeshSnapshot, change: StoreChange) => void>();
  private pending = new Map<string, boolean>(); // key → endpoints-only
  private pendingErrors = false;
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  private maxTimer: ReturnType<typeof setTimeout> | undefined;
  /** A pending batch was already debounced by its source (ReplaceOptions.settled): flush on the next turn. */
  private prompt = false;
  private version = 0;
  private cached: MeshSnapshot | undefined;
  private builtInputs: readonly RawInput[] = [];
  private builtOptions: SnapshotSpec['options'] = { version: 0 };
  private dirty = true;
  /** Validation results per stored input object (inputs are replaced, never mutated, by sources). */
  private readonly issuesOf = new WeakMap<RawInput, ReturnType<typeof validateRaw>>();
  /** The stored (redacted) object for each object a source handed over, so a source re-sending it costs nothing. */
  private readonly storedOf = new WeakMap<RawInput, RawInput>();
  /** Parse/validation results per stored object, reused by every rebuild (see model/snapshotCache). */
  private readonly cache = new SnapshotCache();
  private readonly now: () => Date;
  private readonly inPlaceReplace: boolean;
  /**
   * The last build's merged list when it can be patched: one source, every object keyed and valid, nothing
   * hidden (`at`: each key's position in `list`, made on the first patch). `patches`: the objects replaceInPlace
   * swapped in since, by key; undefined once anything else changed the sources (then the next build merges all).
   */
  private patchable: { list: readonly RawInput[]; at?: Map<string, number> } | undefined;
  private patches: Map<string, RawInput> | undefined = new Map();
  /** Why the last snapshot build failed (the previous snapshot keeps serving), until one succeeds. */
  private buildFailure: string | undefined;
  /** `--mesh-config FILE` (replaces the ConfigMap istio-system/istio) and the problems reading it. */
  private meshOverride: MeshConfigOverride | undefined;
  private ambient = false;
  private meshErrors: readonly LoadError[] = [];

  constructor(opts?: StoreOptions) {
    this.now = opts?.now ?? (() => new Date());
    this.debounceMs = opts?.debounceMs ?? 100;
    this.maxDelayMs = opts?.maxDelayMs ?? 10_000;
    this.domainSuffix = opts?.domainSuffix;
    this.inPlaceReplace = opts?.inPlaceReplace ?? true;
  }

  snapshot(): MeshSnapshot {
    if (!this.cached || this.dirty) {
      try {
        this.cached = this.build();
        this.buildFailure = undefined;
      } catch (e) {
        // Keep serving the last snapshot; with none yet, serve an empty one that carries the error.
        this.buildFailure = `snapshot build failed: ${String(e)}`;
        this.cached ??= buildSnapshot([], { version: this.version, extraErrors: [{ severity: 'error', message: this.buildFailure }] });
      }
      this.dirty = false;
    }
    return this.cached;
  }

  /**
   * The raw inputs the current snapshot was built from (sources merged, last-good versions substituted):
   * what the sandbox overlays a draft on. Never mutated; replaced with every build.
   */
  inputs(): readonly RawInput[] {
    this.snapshot();
    return this.builtInputs;
  }

  /**
   * What the current snapshot was built from (inputs and build options, all plain data): buildSnapshot of
   * it gives an equal snapshot in another thread (server/isolate's workers).
   */
  buildSpec(): SnapshotSpec {
    this.snapshot();
    return { inputs: this.builtInputs, options: this.builtOptions };
  }

  onChange(cb: (snap: MeshSnapshot, change: StoreChange) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  statuses(): SourceStatus[] {
    const failure = this.buildFailure;
    const all = [...this.statusById.values()];
    if (!failure) return all;
    return all.map((s) => (s.state === 'stopped' ? s : { ...s, state: 'failing' as const, lastError: failure }));
  }

  status(status: SourceStatus): void {
    const watched = this.secretsWatched();
    this.statusById.set(status.id, status);
    if (this.secretsWatched() !== watched) {
      // Secrets became known (or unknown): credentials may now be missing, or no longer knowably so.
      this.pendingErrors = true;
      this.schedule();
    }
  }

  /** A Kubernetes source watches Secrets (their metadata; the opt-in RBAC allows it). */
  private secretsWatched(): boolean {
    for (const s of this.statusById.values())
      if (
        s.kind === 'kube' &&
        s.state !== 'stopped' &&
        Object.keys(s.resources ?? {}).some((k) => k === 'secrets' || k.endsWith('/secrets'))
      )
        return true;
    return false;
  }

  replace(sourceId: string, inputs: readonly RawInput[], errors: readonly LoadError[] = [], opts: ReplaceOptions = {}): void {
    const state = this.state(sourceId);
    if (!(this.inPlaceReplace && this.replaceInPlace(state, inputs))) this.replaceAll(state, inputs);
    if (!sameErrors(state.errors, errors)) this.pendingErrors = true;
    state.errors = errors.slice();
    state.given = inputs.slice(); // a copy: a source may reuse its array
    if (opts.settled) this.prompt = true;
    this.schedule();
  }

  /**
   * A list that is the source's last one with a few objects replaced in place (same length; each differing
   * position keeps its key; the last list had no duplicates and no unkeyed objects): only those positions are
   * looked at (a file source re-reading one document of a 35,000-object mesh hands over the same objects for
   * every other one). Leaves `objects` as replaceAll would, in the same order. False when it does not apply.
   */
  private replaceInPlace(state: SourceState, inputs: readonly RawInput[]): boolean {
    const given = state.given;
    if (!given || given.length !== inputs.length || state.own.length > 0 || state.unkeyed.length > 0) return false;
    const diffs: number[] = [];
    for (let i = 0; i < inputs.length; i++) if (inputs[i] !== given[i] && diffs.push(i) > IN_PLACE_MAX) return false;
    const updates: Array<[string, RawInput]> = [];
    for (const i of diffs) {
      const input = this.stored(inputs[i]!);
      const key = this.cache.keyOf(input);
      if (key === undefined || key !== this.cache.keyOf(this.stored(given[i]!))) return false;
      updates.push([key, input]);
    }
    for (const [key, given] of updates) {
      const before = state.objects.get(key);
      // An unchanged object keeps its stored identity, so its cached parse and validation are reused.
      const input = before !== undefined && before !== given && sameObject(before, given) ? before : given;
      if (before === input) continue;
      state.objects.set(key, input); // an existing key keeps its place in the map's order
      this.patches?.set(key, input);
      this.mark(key, before, input);
    }
    return true;
  }

  /** Merges the source's whole new list: duplicates reported, removed keys marked, every object looked at. */
  private replaceAll(state: SourceState, inputs: readonly RawInput[]): void {
    this.patches = undefined;
    const next = new Map<string, RawInput>();
    const unkeyed: RawInput[] = [];
    const own: LoadError[] = [];
    for (const given of inputs) {
      let input = this.stored(given);
      const key = this.cache.keyOf(input);
      if (key === undefined) {
        unkeyed.push(input);
        continue;
      }
      // An unchanged object keeps its stored identity, so its cached parse and validation are reused.
      const before = state.objects.get(key);
      if (before !== undefined && before !== input && sameObject(before, input)) input = before;
      const earlier = next.get(key);
      if (earlier) {
        own.push(duplicateError(earlier, input));
        next.delete(key); // keep the map in input order: the winner takes the later position
      }
      next.set(key, input);
    }
    for (const [key, before] of state.objects) if (!next.has(key)) this.mark(key, before, undefined);
    for (const [key, after] of next) {
      const before = state.objects.get(key);
      if (before !== after) this.mark(key, before, after); // an equal object was given its stored identity above
    }
    for (const key of state.lastGood.keys()) if (!next.has(key)) state.lastGood.delete(key);
    if (!sameList(state.unkeyed, unkeyed) || !sameErrors(state.own, own)) this.pendingErrors = true;
    state.objects = next;
    state.unkeyed = unkeyed;
    state.own = own;
  }

  upsert(sourceId: string, given: RawInput): void {
    const input = this.stored(given);
    const state = this.state(sourceId);
    state.given = undefined;
    this.patches = undefined;
    const key = rawKey(input.object);
    if (key === undefined) {
      state.unkeyed = [...state.unkeyed, input];
      this.pendingErrors = true;
      return this.schedule();
    }
    const before = state.objects.get(key);
    if (sameObject(before, input)) return;
    state.objects.set(key, input);
    this.mark(key, before, input);
    this.schedule();
  }

  remove(sourceId: string, ref: { apiVersion: string; kind: string; namespace?: string; name: string }): void {
    const state = this.state(sourceId);
    state.given = undefined;
    this.patches = undefined;
    const key = rawKey({ apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } });
    if (key === undefined) return;
    const before = state.objects.get(key);
    if (!before) return;
    state.objects.delete(key);
    state.lastGood.delete(key);
    this.mark(key, before, undefined);
    this.schedule();
  }

  /**
   * Sets the keys `sourceId` hides from the sources registered before it (an overlay source's deletions,
   * e.g. the sandbox apply on the demo mesh). A later-registered source's own objects are not affected.
   */
  hide(sourceId: string, keys: readonly string[]): void {
    const state = this.state(sourceId);
    this.patches = undefined;
    const next = new Set(keys);
    for (const k of new Set([...state.hidden, ...next])) if (state.hidden.has(k) !== next.has(k)) this.mark(k, undefined, undefined);
    state.hidden = next;
    this.schedule();
  }

  /**
   * `--mesh-config FILE`: its text replaces the ConfigMap's mesh config in every following snapshot (undefined:
   * back to the ConfigMap). `errors`: problems reading the file, shown with the snapshot's errors.
   */
  /** istiod's ambient profile on or off for every following snapshot (`--ambient`, or detected in the cluster). */
  setAmbient(on: boolean): void {
    if (on === this.ambient) return;
    this.ambient = on;
    this.pendingErrors = true;
    this.schedule();
  }

  setMeshConfig(override: MeshConfigOverride | undefined, errors: readonly LoadError[] = []): void {
    if (override?.text === this.meshOverride?.text && override?.file === this.meshOverride?.file && sameErrors(this.meshErrors, errors))
      return;
    this.meshOverride = override;
    this.meshErrors = errors.slice();
    const key = rawKey({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { namespace: MESH_CONFIGMAP_NAMESPACE, name: MESH_CONFIGMAP_NAME },
    });
    if (key !== undefined) this.pending.set(key, false);
    this.pendingErrors = true;
    this.schedule();
  }

  /** Applies pending changes now: bumps the version, rebuilds, and notifies listeners. */
  flush(): void {
    this.clearTimers();
    this.prompt = false;
    if (this.pending.size === 0 && !this.pendingErrors) return;
    const changed = [...this.pending.keys()].sort();
    const endpointsOnly = changed.length > 0 && !this.pendingErrors && [...this.pending.values()].every(Boolean);
    this.pending = new Map();
    this.pendingErrors = false;
    this.version++;
    this.dirty = true;
    const snap = this.snapshot();
    if (this.buildFailure) return; // the previous snapshot keeps serving; statuses() shows why
    const change: StoreChange = { version: this.version, changed, endpointsOnly };
    for (const cb of [...this.listeners]) {
      try {
        cb(snap, change);
      } catch {
        // A listener's failure must not stop the others or the store.
      }
    }
  }

  /** Stops pending timers (pending changes stay until the next flush). */
  close(): void {
    this.clearTimers();
  }

  /** The stored copy of a source's object: key material never enters the store, whatever the source (DESIGN.md §6). */
  private stored(given: RawInput): RawInput {
    let input = this.storedOf.get(given);
    if (!input) this.storedOf.set(given, (input = { ...given, object: redactSecret(given.object) }));
    return input;
  }

  private state(id: string): SourceState {
    let s = this.sources.get(id);
    if (!s) {
      this.patches = undefined;
      this.sources.set(id, (s = { objects: new Map(), unkeyed: [], errors: [], lastGood: new Map(), own: [], hidden: new Set<string>() }));
    }
    return s;
  }

  private mark(key: string, before: RawInput | undefined, after: RawInput | undefined): void {
    const eo = endpointsOnlyChange(key, before, after);
    this.pending.set(key, (this.pending.get(key) ?? true) && eo);
  }

  private schedule(): void {
    if (this.pending.size === 0 && !this.pendingErrors) return;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    // A settled batch is not debounced again (one window from a file write to the snapshot); a timer, not a
    // synchronous flush, so listeners never run inside a source's call and same-turn changes still merge.
    this.quietTimer = setTimeout(() => this.flush(), this.prompt ? 0 : this.debounceMs);
    this.maxTimer ??= setTimeout(() => this.flush(), this.maxDelayMs);
  }

  private clearTimers(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    if (this.maxTimer) clearTimeout(this.maxTimer);
    this.quietTimer = undefined;
    this.maxTimer = undefined;
  }

  /** Merges sources (later-registered wins on a key clash), substituting last-good versions of invalid objects. */
  private build(): MeshSnapshot {
    const patched = this.patched();
    this.patches = new Map();
    if (patched) return this.finishBuild(patched.list, patched.errors);
    this.patchable = undefined;
    const merged = new Map<string, RawInput>();
    // One source (the usual server): its objects in order are the merge, without a Map of every key to fill.
    const single: RawInput[] | undefined = this.sources.size === 1 ? [] : undefined;
    const unkeyed: RawInput[] = [];
    const errors: LoadError[] = [];
    // No push(...array): a source may hold 100k+ objects or errors (a spread that large overflows the stack).
    for (const state of this.sources.values()) {
      for (const e of state.errors) errors.push(e);
      for (const e of state.own) errors.push(e);
      for (const u of state.unkeyed) unkeyed.push(u);
      for (const key of state.hidden) merged.delete(key);
      for (const [key, input] of state.objects) {
        let use = input;
        let issues = this.issuesOf.get(input);
        if (!issues) this.issuesOf.set(input, (issues = validateRaw(input.object)));
        const good = state.lastGood.get(key);
        if (issues.length === 0) {
          if (good?.input !== input) state.lastGood.set(key, { input, at: this.now().toISOString() });
        } else if (good) {
          use = good.input;
          for (const i of issues) errors.push(lastGoodError(input, i.path, i.message, good.at));
        }
        if (single) single.push(use);
        else {
          merged.delete(key);
          merged.set(key, use);
        }
      }
    }
    const all = single ?? [...merged.values()];
    for (const u of unkeyed) all.push(u);
    // Patchable next time when nothing but the source's objects, all valid and keyed, made the list.
    const only = [...this.sources.values()][0];
    if (single && unkeyed.length === 0 && only && only.hidden.size === 0 && errors.length === only.errors.length + only.own.length)
      this.patchable = { list: all };
    return this.finishBuild(all, errors);
  }

  /**
   * The last build's list with the objects replaced in place since swapped in at their positions: what the
   * merge below would make when the one source only replaced valid objects in place (a 35,000-object mesh is
   * not walked again). Undefined when that is not the case.
   */
  private patched(): { list: RawInput[]; errors: LoadError[] } | undefined {
    const last = this.patchable;
    const patches = this.patches;
    if (!last || !patches || this.sources.size !== 1) return undefined;
    const state = [...this.sources.values()][0]!;
    if (state.hidden.size > 0 || state.unkeyed.length > 0) return undefined;
    if (!last.at) last.at = new Map(last.list.map((input, i) => [this.cache.keyOf(input)!, i]));
    const list = last.list.slice();
    for (const [key, input] of patches) {
      const at = last.at.get(key);
      if (at === undefined || state.objects.get(key) !== input) return undefined;
      let issues = this.issuesOf.get(input);
      if (!issues) this.issuesOf.set(input, (issues = validateRaw(input.object)));
      if (issues.length > 0) return undefined; // its last good version and the error: the whole merge
      if (state.lastGood.get(key)?.input !== input) state.lastGood.set(key, { input, at: this.now().toISOString() });
      list[at] = input;
    }
    this.patchable = { list, at: last.at };
    return { list, errors: [...state.errors, ...state.own] };
  }

  /** The snapshot of the merged list `all` with the sources' `errors` (the mesh config's are added here). */
  private finishBuild(all: RawInput[], errors: LoadError[]): MeshSnapshot {
    this.builtInputs = all;
    for (const e of this.meshErrors) errors.push(e);
    const options: SnapshotSpec['options'] = {
      version: this.version,
      ...(this.domainSuffix !== undefined ? { domainSuffix: this.domainSuffix } : {}),
      ...(this.meshOverride ? { meshConfig: this.meshOverride } : {}),
      ...(this.ambient ? { ambient: true } : {}),
      extraErrors: errors,
      secretsWatched: this.secretsWatched(),
    };
    const snap = buildSnapshot(all, { ...options, cache: this.cache });
    this.builtOptions = options;
    // The indexes a pod change reads, made off this build's event (no-op when carried from the last build).
    setImmediate(() => warmPodPatch(this.cache.last)).unref();
    return snap;
  }
}

const describeInput = (input: RawInput): string => {
  const md = (input.object.metadata ?? {}) as Record<string, unknown>;
  return `${String(input.object.kind)} ${md.namespace ? `${String(md.namespace)}/` : ''}${String(md.name)}`;
};

const where = (input: RawInput): string =>
  input.origin.file !== undefined
    ? `${input.origin.file}${input.origin.doc !== undefined ? `#${input.origin.doc}` : ''}`
    : input.origin.source;

function duplicateError(earlier: RawInput, later: RawInput): LoadError {
  const e: LoadError = {
    severity: 'error',
    message: `duplicate object: defined in ${where(earlier)} and in ${where(later)}; the later one (${where(later)}) is used`,
    object: describeInput(later),
  };
  if (later.origin.file !== undefined) e.file = later.origin.file;
  if (later.origin.doc !== undefined) e.doc = later.origin.doc;
  return e;
}

function lastGoodError(input: RawInput, path: string, message: string, at: string): LoadError {
  const e: LoadError = {
    severity: 'error',
    message: `${message} (stale: last good from ${at} is served)`,
    object: describeInput(input),
    staleSince: at,
  };
  if (path) e.path = path;
  if (input.origin.file !== undefined) e.file = input.origin.file;
  if (input.origin.doc !== undefined) e.doc = input.origin.doc;
  return e;
}

const sameList = (a: readonly RawInput[], b: readonly RawInput[]): boolean =>
  a.length === b.length && a.every((x, i) => sameObject(x, b[i]));
const sameErrors = (a: readonly LoadError[], b: readonly LoadError[]): boolean => JSON.stringify(a) === JSON.stringify(b);
