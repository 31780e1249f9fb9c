// GET /api/demo/traffic[?window=SECONDS] (README "Demo traffic"): the demo data plane's counters over the
// last `window` seconds (1–60, default 10; at most what the data plane keeps: 10 s by default). Without a
// data plane (a cluster source, or files served without --demo-traffic) the answer says so:
// `running: false` and a problem line, never an error status.
import type { ExporterTarget } from '../demo/exporter';
import type { TrafficReport } from '../demo/report';
import { scrapeTargets, type TargetGroup } from '../demo/scrapeConfig';
import { fail, ok, type ApiResult } from './types';

export interface TrafficSource {
  report(windowSeconds?: number): TrafficReport;
}

export const NO_DEMO_TRAFFIC =
  'no demo traffic: it runs on the embedded demo mesh (meshscope serve) or with meshscope serve --config PATH --demo-traffic';

export function demoTraffic(source: TrafficSource | undefined, params: URLSearchParams): ApiResult<TrafficReport | { error: string }> {
  const raw = params.get('window');
  let seconds = 10;
  if (raw !== null) {
    if (!/^\d{1,2}(\.\d{1,3})?$/.test(raw) || Number(raw) < 1 || Number(raw) > 60)
      return fail(400, `window must be 1 to 60 seconds, got "${raw}"`);
    seconds = Number(raw);
  }
  if (!source)
    return ok({
      windowSeconds: seconds,
      running: false,
      ratePerClient: 0,
      testerPercent: 0,
      clients: 0,
      backends: [],
      problems: [NO_DEMO_TRAFFIC],
      services: [],
    });
  return ok(source.report(seconds));
}

/**
 * GET /api/demo/scrape-targets: the demo pods' sidecar metrics endpoints as Prometheus http_sd / file_sd JSON
 * (`[{"targets": ["IP:15020"], "labels": {"namespace", "pod"}}]`), only those that listen; `[]` without a
 * data plane (a valid, empty target list: Prometheus keeps polling).
 */
export function demoScrapeTargets(
  plane: { exporters: { targets(): { target: ExporterTarget; error?: string }[] }; metricsPort: number } | undefined,
): ApiResult<TargetGroup[]> {
  if (!plane) return ok([]);
  const up = plane.exporters
    .targets()
    .filter((t) => !t.error)
    .map((t) => t.target);
  return ok(scrapeTargets(up, plane.metricsPort));
}
