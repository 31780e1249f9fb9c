// The overview graph's layout thread: one LayoutRequest in, one LayoutResult out (layoutCore.ts). Started by
// layoutClient.ts with `new Worker(new URL('./layout.worker.ts', import.meta.url))`, which the bundler
// turns into its own chunk.
import { answer, canvasMeasure, type LayoutRequest, type LayoutResult } from './layoutCore';

interface WorkerScope {
  onmessage: ((ev: { data: LayoutRequest }) => void) | null;
  postMessage(r: LayoutResult): void;
}

const scope = globalThis as unknown as WorkerScope;
const measure = canvasMeasure();
scope.onmessage = (ev) => scope.postMessage(answer(ev.data, measure));
