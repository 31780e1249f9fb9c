// Which Chromium the browser tests use: CHROMIUM_PATH, else a system Chromium, else Playwright's own
// build (installed on demand when the network allows). Shared by playwright.config.ts and test-all.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SYSTEM = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** A system browser path, or undefined. CHROMIUM_PATH wins when set (and must exist). */
export function systemChromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const p of SYSTEM) if (existsSync(p)) return p;
  const mac = '/Applications/Chromium.app/Contents/MacOS/Chromium';
  return existsSync(mac) ? mac : undefined;
}

/** Whether Playwright's own Chromium is installed (its executablePath exists). */
export async function playwrightChromium() {
  try {
    const { chromium } = await import('@playwright/test');
    const p = chromium.executablePath();
    return p && existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** Try `playwright install chromium` (needs the network to reach Playwright's CDN); true on success. */
export function installPlaywrightChromium(cwd) {
  const r = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'install', 'chromium'], {
    cwd,
    stdio: 'inherit',
    timeout: 600_000,
  });
  return r.status === 0;
}

/** Debian/Ubuntu as root: apt-get install chromium; true on success. */
export function aptInstallChromium() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (spawnSync('apt-get', ['update'], { env, stdio: 'inherit' }).status !== 0) return false;
  return spawnSync('apt-get', ['install', '-y', 'chromium'], { env, stdio: 'inherit' }).status === 0;
}
