// /dump: every real Envoy config dump in ../shared/fixtures/envoy-config-dumps opens and shows its
// listeners (or, for the routes-only dump, its routes and an empty state that says so).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DumpPage } from '../pages/DumpPage';

const DIR = join(process.env.MESHSCOPE_FIXTURES ?? join(process.cwd(), '..', 'shared', 'fixtures'), 'envoy-config-dumps');

type J = Record<string, unknown>;
/** How each listener of Envoy's ListenersConfigDump (static + dynamic active/warming/draining) is
 *  identified: its name, or `ip:port` for an unnamed (bootstrap) one. */
function listenerLabels(file: string): string[] {
  const dump = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { configs: J[] };
  const label = (l: J): string => {
    if (typeof l.name === 'string' && l.name) return l.name;
    const sa = ((l.address as J | undefined)?.socket_address ?? {}) as J;
    return `${String(sa.address)}:${String(sa.port_value)}`;
  };
  const out: string[] = [];
  for (const s of dump.configs.filter((c) => String(c['@type']).endsWith('.ListenersConfigDump'))) {
    for (const l of (s.static_listeners as J[] | undefined) ?? []) out.push(label(l.listener as J));
    for (const l of (s.dynamic_listeners as J[] | undefined) ?? []) {
      const st = (l.active_state ?? l.warming_state ?? l.draining_state) as J | undefined;
      if (st) out.push(label(st.listener as J));
    }
  }
  return out;
}

/** Which of the other sections the dump has (to check something is shown when it has no listeners). */
const sectionOf = (file: string): 'routes' | 'clusters' | 'endpoints' => {
  const types = (JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { configs: J[] }).configs.map((c) => String(c['@type']));
  return types.some((t) => t.endsWith('.RoutesConfigDump'))
    ? 'routes'
    : types.some((t) => t.endsWith('.ClustersConfigDump'))
      ? 'clusters'
      : 'endpoints';
};

for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json'))) {
  test(`upload ${file}: its listeners are listed`, async ({ page }, info) => {
    const dump = new DumpPage(page);
    await dump.open();
    await dump.upload(join(DIR, file));
    await expect(dump.opened).toContainText(file);
    await expect(dump.tabButton('listeners')).toHaveAttribute('aria-selected', 'true');
    const labels = listenerLabels(file);
    if (labels.length === 0) {
      await expect(page.getByTestId('panel-listeners')).toContainText('No listeners in this config');
      const other = sectionOf(file);
      await dump.openTab(other);
      await expect(dump.rows(other).first()).toBeVisible();
    } else {
      for (const n of new Set(labels)) await expect(dump.table('listeners').getByRole('row').filter({ hasText: n }).first()).toBeVisible();
    }
    await page.screenshot({ path: info.outputPath(`dump-${file.replace('.json', '')}.png`), fullPage: true });
  });
}

test('pasting something that is not a config dump says what to do', async ({ page }) => {
  const dump = new DumpPage(page);
  await dump.open();
  await dump.paste('{"kind": "Pod"}');
  await expect(dump.error).toContainText('not an Envoy config dump');
  await dump.paste('[');
  await expect(dump.error).toContainText('not JSON');
});
