// TEST-ONLY. A SourceSink that records every call and keeps the resulting object set, like a store.
import type { RawInput, SourceSink, SourceStatus } from '../../types';

export type SinkCall =
  | { op: 'replace'; count: number }
  | { op: 'upsert'; key: string; resourceVersion?: string }
  | { op: 'remove'; key: string };

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/** `group/Kind/namespace/name`, the store's identity (version-independent). */
export function refKey(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
  return `${groupOf(apiVersion)}/${kind}/${namespace ?? ''}/${name}`;
}

export function inputKey(input: RawInput): string {
  const md = (input.object.metadata ?? {}) as { namespace?: string; name?: string };
  return refKey(String(input.object.apiVersion ?? ''), String(input.object.kind ?? ''), md.namespace, md.name ?? '');
}

export class RecordingSink implements SourceSink {
  readonly calls: SinkCall[] = [];
  readonly statuses: SourceStatus[] = [];
  readonly objects = new Map<string, RawInput>();

  replace(_id: string, inputs: readonly RawInput[]): void {
    this.calls.push({ op: 'replace', count: inputs.length });
    this.objects.clear();
    for (const i of inputs) this.objects.set(inputKey(i), i);
  }

  upsert(_id: string, input: RawInput): void {
    const key = inputKey(input);
    const md = input.object.metadata as { resourceVersion?: string } | undefined;
    this.calls.push({ op: 'upsert', key, resourceVersion: md?.resourceVersion });
    this.objects.set(key, input);
  }

  remove(_id: string, ref: { apiVersion: string; kind: string; namespace?: string; name: string }): void {
    const key = refKey(ref.apiVersion, ref.kind, ref.namespace, ref.name);
    this.calls.push({ op: 'remove', key });
    this.objects.delete(key);
  }

  status(status: SourceStatus): void {
    this.statuses.push(structuredClone(status));
  }

  get lastStatus(): SourceStatus | undefined {
    return this.statuses.at(-1);
  }

  keys(prefix = ''): string[] {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}

/** Polls `cond` every 10 ms until true; throws with `what` after `timeoutMs`. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
