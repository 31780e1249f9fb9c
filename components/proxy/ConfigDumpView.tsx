'use client';
import { useState } from 'react';

/** The raw ConfigDump JSON, with a copy button. */
export function ConfigDumpView({ dump, proxyId }: { dump: unknown; proxyId: string }) {
  const text = JSON.stringify(dump, null, 2);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <details className="dump" data-testid="config-dump">
      <summary>
        config_dump JSON <span className="muted">({Math.round(text.length / 1024)} KiB)</span>
      </summary>
      <div className="dump-actions">
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <a href={`/debug/config_dump?proxyID=${encodeURIComponent(proxyId)}&pretty`}>open /debug/config_dump</a>
      </div>
      <pre className="mono">{text}</pre>
    </details>
  );
}
