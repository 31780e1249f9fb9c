// The parse worker (node:worker_threads, issue 24 goal 6): runs ./parseJobs runPieceJob for the pool of
// ../../lib/workerPool — the pieces of a big file's first load parsed (and validated) off the main thread.
// Bundled by scripts/build-cli.mjs into dist/cli/parseWorker.mjs (a worker needs a real JS file at run time);
// it imports only the parser and the validation, not the translator.
import { parentPort } from 'node:worker_threads';
import type { FromJobWorker, ToJobWorker } from '../../lib/workerPool';
import { type PieceJob, type PieceResult, runPieceJob } from './parseJobs';

const port = parentPort;
if (port)
  port.on('message', (m: ToJobWorker<PieceJob>) => {
    let answer: FromJobWorker<PieceResult[]>;
    try {
      answer = { id: m.id, ok: true, result: runPieceJob(m.job) };
    } catch (e) {
      answer = { id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(answer);
  });
