'use client';
// /dump: open an Envoy /config_dump (file picker, drag and drop, or paste) and browse it with the proxy
// views. Everything stays in the browser; the dump is kept in sessionStorage (when it fits) so a reload
// or a deep link within the session still shows it.
import { Suspense, useEffect, useState, type DragEvent } from 'react';
import { DumpBrowser } from '@/components/proxy/DumpBrowser';
import { DumpCompare } from './DumpCompare';
import { parseDumpText, type ParsedDump } from './parseDump';

const STORE_KEY = 'meshscope.dump';

interface Opened {
  name: string;
  parsed: Extract<ParsedDump, { ok: true }>;
}

export function DumpOpen() {
  const [opened, setOpened] = useState<Opened>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [paste, setPaste] = useState('');
  const [over, setOver] = useState(false);

  useEffect(() => {
    try {
      const saved = sessionStorage.getItem(STORE_KEY);
      if (!saved) return;
      const { name, text } = JSON.parse(saved) as { name: string; text: string };
      const p = parseDumpText(text);
      if (p.ok) setOpened({ name, parsed: p });
    } catch {
      /* nothing saved */
    }
  }, []);

  const open = async (name: string, read: () => Promise<string>) => {
    setBusy(true);
    setError('');
    // Let the "Reading…" state paint before parsing a large dump.
    await new Promise((r) => setTimeout(r, 0));
    try {
      const text = await read();
      const p = parseDumpText(text);
      if (!p.ok) {
        setError(p.error);
        return;
      }
      setOpened({ name, parsed: p });
      window.history.replaceState(null, '', `${window.location.pathname}?tab=listeners`);
      try {
        sessionStorage.setItem(STORE_KEY, JSON.stringify({ name, text }));
      } catch {
        sessionStorage.removeItem(STORE_KEY); // too large to keep: fine, it is open now
      }
    } catch (e) {
      setError(`Could not read ${name}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) void open(f.name, () => f.text());
  };

  const close = () => {
    setOpened(undefined);
    sessionStorage.removeItem(STORE_KEY);
    window.history.replaceState(null, '', window.location.pathname);
  };

  return (
    <>
      <section className="panel dump-upload">
        <h1>Open a config dump</h1>
        {opened ? (
          <p data-testid="dump-opened">
            <b className="mono">{opened.name}</b>: {opened.parsed.counts.listeners} listeners, {opened.parsed.counts.routes} route configs,{' '}
            {opened.parsed.counts.clusters} clusters, {opened.parsed.counts.endpoints} endpoint assignments.{' '}
            <button type="button" onClick={close}>
              Open another
            </button>
          </p>
        ) : (
          <>
            <p className="muted">
              An Envoy <code>/config_dump</code> (from <code>pilot-agent request GET config_dump</code>, Envoy&apos;s admin port,
              istiod&apos;s <code>/debug/config_dump?proxyID=</code> or <code>istioctl proxy-config all -o json</code>). It is read in your
              browser and not uploaded.
            </p>
            {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop zone; the file input beside it is the keyboard path */}
            <div
              className={`dump-drop${over ? ' over' : ''}`}
              onDragOver={(e) => (e.preventDefault(), setOver(true))}
              onDragLeave={() => setOver(false)}
              onDrop={onDrop}
            >
              <label className="file">
                Choose a file…
                <input
                  type="file"
                  accept=".json,application/json"
                  data-testid="dump-file"
                  hidden
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (f) void open(f.name, () => f.text());
                  }}
                />
              </label>{' '}
              or drop it here
            </div>
            <textarea
              aria-label="Config dump JSON"
              placeholder='or paste it: {"configs": [ … ]}'
              value={paste}
              onChange={(e) => setPaste(e.target.value)}
              data-testid="dump-paste"
            />
            <div className="actions">
              <button
                type="button"
                disabled={busy || !paste.trim()}
                onClick={() => void open('pasted JSON', async () => paste)}
                data-testid="dump-open-paste"
              >
                Open pasted JSON
              </button>
              {busy ? <span className="muted">Reading…</span> : null}
            </div>
          </>
        )}
        {error ? (
          <p className="error-text" role="alert" data-testid="dump-error">
            {error}
          </p>
        ) : null}
        {opened?.parsed.warnings.length ? <p className="muted small">Skipped: {opened.parsed.warnings.slice(0, 3).join('; ')}</p> : null}
      </section>
      {opened ? null : <DumpCompare />}
      {opened ? (
        <Suspense>
          <DumpBrowser
            key={opened.name}
            proxyId={null}
            dump={opened.parsed.dump}
            downloadName={opened.name.endsWith('.json') ? opened.name : 'config_dump.json'}
          />
        </Suspense>
      ) : null}
    </>
  );
}
