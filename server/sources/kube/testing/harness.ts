// TEST-ONLY. Starts a fake API server and a KubeSource against it, and tears both down.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { KubeSource, type KubeSourceOptions } from '../kubeSource';
import { FakeApiServer, DEFAULT_FAKE_RESOURCES, type FakeResource } from './fakeApiServer';
import { kubeConfigFor } from './fixtures';
import { RecordingSink } from './recordingSink';

/** Short backoff for tests; each test that relies on it says what real duration it stands for. */
export const TEST_BACKOFF = { initialMs: 50, maxMs: 400 };

export interface Harness {
  fake: FakeApiServer;
  source: KubeSource;
  sink: RecordingSink;
  close(): Promise<void>;
}

export async function startFake(resources: readonly FakeResource[] = DEFAULT_FAKE_RESOURCES): Promise<FakeApiServer> {
  const fake = new FakeApiServer(resources);
  await fake.start();
  return fake;
}

export async function startSource(fake: FakeApiServer, opts: KubeSourceOptions = {}): Promise<Harness> {
  const sink = new RecordingSink();
  const source = new KubeSource('kube', { kubeConfig: kubeConfigFor(fake.url), backoff: TEST_BACKOFF, ...opts });
  await source.start(sink);
  return {
    fake,
    source,
    sink,
    close: async () => {
      await source.stop();
      await fake.stop();
    },
  };
}

/** The objects of a multi-document manifest file, as written. */
export function readManifest(file: string): Record<string, unknown>[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => doc.toJS() as Record<string, unknown> | null)
    .filter((o): o is Record<string, unknown> => o !== null && typeof o === 'object');
}

/** Creates the objects of a real manifest file whose kinds the fake server serves (others are skipped). */
export function loadManifest(file: string, fake: FakeApiServer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const o of readManifest(file)) {
    try {
      out.push(fake.create(o));
    } catch {
      // a kind the fake server does not serve (ServiceAccount, Deployment)
    }
  }
  return out;
}
