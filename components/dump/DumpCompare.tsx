'use client';
// /dump, "Compare two dumps": upload two Envoy config dumps (or one against meshscope's translation of a proxy)
// and see the per-resource drift between them (POST /api/drift; the two dumps are sent to this meshscope
// server, which keeps nothing). Offline, "only in A" / "only in B" stand for onlyInMeshscope / onlyInEnvoy.
// "Trace on both" simulates one request on each dump (POST /api/simulate {dump, request}) side by side.
import { useState } from 'react';
import { DriftView } from '@/components/drift/DriftView';
import type { TraceSides } from '@/components/drift/TraceBoth';
import { defaultMode } from '@/components/trace/model/form';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { fetchMeshscopeDump, postDrift } from '@/components/data/drift';
import { useProxies } from '@/components/data/useProxies';
import type { DriftBody } from '@/server/api/contract';
import { parseDumpText } from './parseDump';

interface Side {
  name: string;
  dump: unknown;
}

function FilePick({ label, testId, onPick }: { label: string; testId: string; onPick: (s: Side | { error: string }) => void }) {
  return (
    <label className="file">
      {label}
      <input
        type="file"
        accept=".json,application/json"
        hidden
        data-testid={testId}
        onChange={async (e) => {
          const f = e.target.files?.[0];
          if (!f) return;
          const p = parseDumpText(await f.text());
          onPick(p.ok ? { name: f.name, dump: p.dump } : { error: `${f.name}: ${p.error}` });
        }}
      />
    </label>
  );
}

export function DumpCompare() {
  const [expected, setExpected] = useState<Side>();
  const [actual, setActual] = useState<Side>();
  const [proxy, setProxy] = useState('');
  const [result, setResult] = useState<{ body: DriftBody; labels: { expected: string; actual: string }; trace: TraceSides }>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const proxies = useProxies();

  const pick = (set: (s: Side) => void) => (s: Side | { error: string }) => {
    setResult(undefined);
    if ('error' in s) setError(s.error);
    else {
      setError('');
      set(s);
    }
  };

  const compare = async () => {
    if (!actual) return;
    setBusy(true);
    setError('');
    try {
      let exp = expected;
      if (!exp) {
        if (!proxy) throw new Error('Choose the expected dump, or a proxy whose meshscope translation to compare against.');
        exp = { name: `meshscope (${proxy})`, dump: await fetchMeshscopeDump(proxy) };
      }
      const body = await postDrift({ expected: exp.dump, actual: actual.dump });
      // "Trace on both": the two dumps simulated as uploaded ({dump, request} each), received as the actual one's listeners suggest.
      const trace: TraceSides = { mode: defaultMode(readConfigDump(actual.dump).config), expectedDump: exp.dump, actualDump: actual.dump };
      setResult({ body, labels: { expected: exp.name, actual: actual.name }, trace });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel dump-compare" data-testid="dump-compare">
      <h2>Compare two dumps</h2>
      <p className="muted small">
        The per-resource, semantic drift between an expected config dump and an actual one (versions, timestamps and order ignored). The two
        dumps are sent to this meshscope server to compare; nothing is kept.
      </p>
      <div className="actions">
        <span>
          Expected: {expected ? <b className="mono">{expected.name}</b> : null}{' '}
          <FilePick label="Choose A…" testId="compare-expected-file" onPick={pick(setExpected)} />
          {!expected ? (
            <>
              {' '}
              or meshscope&apos;s translation of{' '}
              <select value={proxy} onChange={(e) => setProxy(e.target.value)} data-testid="compare-proxy" aria-label="Proxy">
                <option value="">(a proxy)</option>
                {(proxies.data?.proxies ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.id}
                  </option>
                ))}
              </select>
            </>
          ) : (
            <button type="button" onClick={() => (setExpected(undefined), setResult(undefined))}>
              clear
            </button>
          )}
        </span>
      </div>
      <div className="actions">
        <span>
          Actual: {actual ? <b className="mono">{actual.name}</b> : null}{' '}
          <FilePick label="Choose B…" testId="compare-actual-file" onPick={pick(setActual)} />
        </span>
      </div>
      <div className="actions">
        <button type="button" disabled={busy || !actual || (!expected && !proxy)} onClick={() => void compare()} data-testid="compare-run">
          Compare
        </button>
        {busy ? <span className="muted">Comparing…</span> : null}
      </div>
      {error ? (
        <p className="error-text" role="alert" data-testid="compare-error">
          {error}
        </p>
      ) : null}
      {result ? <DriftView body={result.body} labels={result.labels} trace={result.trace} /> : null}
    </section>
  );
}
