'use client';
// The raw config_dump: copy, download, and a view capped so a 10k-cluster dump does not freeze the page.
import { useMemo, useState } from 'react';

const SHOW_LIMIT = 1_000_000; // characters rendered before "show all"

export function RawJsonTab({ dump, downloadName, proxyId }: { dump: unknown; downloadName: string; proxyId: string | null }) {
  const text = useMemo(() => JSON.stringify(dump, null, 2), [dump]);
  const [all, setAll] = useState(false);
  const [note, setNote] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setNote('Copied');
    } catch {
      setNote('Copy failed (clipboard unavailable): use Download');
    }
    setTimeout(() => setNote(''), 2000);
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = downloadName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const shown = all || text.length <= SHOW_LIMIT ? text : text.slice(0, SHOW_LIMIT);
  return (
    <div className="raw-json" data-testid="config-dump">
      <div className="dump-actions">
        <button type="button" onClick={copy} data-testid="copy-dump">
          Copy
        </button>
        <button type="button" onClick={download} data-testid="download-dump">
          Download {downloadName}
        </button>
        {proxyId ? <a href={`/debug/config_dump?proxyID=${encodeURIComponent(proxyId)}&pretty`}>open /debug/config_dump</a> : null}
        <span className="muted small">{Math.round(text.length / 1024)} KiB</span>
        <span role="status">{note}</span>
      </div>
      <pre className="mono raw" data-testid="raw-json">
        {shown}
      </pre>
      {shown.length < text.length ? (
        <button type="button" onClick={() => setAll(true)}>
          Show all {Math.round(text.length / 1024)} KiB (may be slow)
        </button>
      ) : null}
    </div>
  );
}
