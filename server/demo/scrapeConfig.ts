// The demo's sidecar metrics as Prometheus targets (issue #23 §2): Prometheus http_sd / file_sd JSON
// (GET /api/demo/scrape-targets) and a ready prometheus.yml (`meshscope demo prometheus-config`), with
// the target labels `namespace` and `pod` (what Istio's own Prometheus config adds by relabelling). Pure.
import { type ExporterTarget, METRICS_PATH, METRICS_PORT } from './exporter';

export const SCRAPE_JOB = 'meshscope-demo';

export interface TargetGroup {
  targets: string[];
  labels: { namespace: string; pod: string };
}

/** One target group per pod (http_sd and file_sd share this shape). */
export function scrapeTargets(exporters: readonly ExporterTarget[], port = METRICS_PORT): TargetGroup[] {
  return [...exporters]
    .sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0))
    .map((e) => ({ targets: [`${e.ip}:${port}`], labels: { namespace: e.namespace, pod: e.pod } }));
}

const q = (s: string) => JSON.stringify(s);

/** A prometheus.yml scraping every demo pod each second on /stats/prometheus. */
export function prometheusConfig(exporters: readonly ExporterTarget[], port = METRICS_PORT): string {
  const lines = [
    '# meshscope demo: every loopback demo pod serves its sidecar metrics on IP:15020/stats/prometheus.',
    '# Run: prometheus --config.file=THIS_FILE --web.listen-address=127.0.0.1:9090, then',
    '#      meshscope serve --prometheus http://127.0.0.1:9090',
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    `  - job_name: ${SCRAPE_JOB}`,
    '    scrape_interval: 1s',
    '    scrape_timeout: 1s',
    `    metrics_path: ${METRICS_PATH}`,
    '    static_configs:',
  ];
  const groups = scrapeTargets(exporters, port);
  if (groups.length === 0) lines.push('      []');
  for (const g of groups) {
    lines.push(`      - targets: [${g.targets.map(q).join(', ')}]`);
    lines.push(`        labels: {namespace: ${q(g.labels.namespace)}, pod: ${q(g.labels.pod)}}`);
  }
  return `${lines.join('\n')}\n`;
}
