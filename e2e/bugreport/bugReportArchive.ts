// The "bugreport" project's server (TEST-ONLY, a Playwright webServer run with `node --import tsx`): an
// `istioctl bug-report` archive built from Istio's Bookinfo with one pod's config dump in it
// (server/archive/bugReport.testing.ts), opened by `meshscope serve --bug-report ARCHIVE` as a user with only
// the archive would. The pod's Envoy holds a stale push (reviews 50/50 where the archive's VirtualService says
// 80/20) and istiod's syncz says so (RDS STALE for the pod). Usage: node --import tsx e2e/bugreport/bugReportArchive.ts PORT XDS_PORT
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bugReportEntries,
  POD_ID,
  syncStatusEntry,
  translatedDump,
  withReviewsWeights,
  writeBugReport,
} from '../../server/archive/bugReport.testing';

const [port, xdsPort] = process.argv.slice(2);
if (!port || !xdsPort) throw new Error('usage: bugReportArchive.ts PORT XDS_PORT');
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const archive = writeBugReport(
  join(mkdtempSync(join(tmpdir(), 'meshscope-e2e-bugreport-')), 'bug-report.tar.gz'),
  bugReportEntries(withReviewsWeights(translatedDump(), 50, 50), [syncStatusEntry(POD_ID, { route: 'STALE' })]),
);
const child = spawn(
  process.execPath,
  [join(root, 'bin', 'meshscope.mjs'), 'serve', '--bug-report', archive, '--port', port, '--xds-port', xdsPort],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => child.kill('SIGTERM'));
child.on('exit', (code) => process.exit(code ?? 1));
