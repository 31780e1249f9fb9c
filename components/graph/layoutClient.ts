// Main-thread side of the off-thread layout: starts the layout worker (the bundler sees the literal
// `new Worker(new URL(…, import.meta.url))` and emits the worker as its own chunk), turns canvas elements
// into a LayoutRequest (label, font size and padding as the stylesheet draws them) and awaits the answer.
import type { LayoutRequest, LayoutResult } from './layoutCore';

/** What CytoscapeCanvas hands over: its element definitions. */
export interface LayoutElement {
  group: 'nodes' | 'edges';
  data: object;
  classes?: string;
}

/** A layout worker, or undefined where workers are not available (then the canvas lays out itself). */
export function startLayoutWorker(): Worker | undefined {
  if (typeof Worker === 'undefined') return undefined;
  try {
    return new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module', name: 'meshscope-graph-layout' });
  } catch {
    return undefined;
  }
}

const hasClass = (classes: string | undefined, c: string) => (classes ?? '').split(' ').includes(c);

/** Font size and padding per node, as elements.ts's stylesheet sets them. */
export function layoutRequest(seq: number, elements: readonly LayoutElement[], options: Record<string, unknown>): LayoutRequest {
  const req: LayoutRequest = { seq, nodes: [], edges: [], options };
  for (const e of elements) {
    const d = e.data as { id: string; parent?: string; label?: string; source?: string; target?: string };
    if (e.group === 'edges') req.edges.push({ id: d.id, source: d.source!, target: d.target! });
    else
      req.nodes.push({
        id: d.id,
        ...(d.parent ? { parent: d.parent } : {}),
        label: d.label ?? '',
        fontSize: hasClass(e.classes, 'collapsed') || hasClass(e.classes, 'leaf') ? 13.5 : 13,
        padding: hasClass(e.classes, 'badge-gateway') ? 14 : 8,
      });
  }
  return req;
}

/** Posts a request and resolves with its answer; rejects when the worker fails or answers with an error. */
export function runInWorker(worker: Worker, req: LayoutRequest): Promise<LayoutResult> {
  return new Promise((resolve, reject) => {
    const onMessage = (ev: MessageEvent<LayoutResult>) => {
      if (ev.data.seq !== req.seq) return;
      done();
      if (ev.data.error) reject(new Error(ev.data.error));
      else resolve(ev.data);
    };
    const onError = (ev: ErrorEvent) => {
      done();
      reject(new Error(ev.message || 'layout worker failed'));
    };
    const done = () => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.postMessage(req);
  });
}
