'use client';
// Form helpers for the chosen draft document, in sync with the YAML both ways: the form is read from the
// text on every render (model/form.readForm) and each change is written back into the text (model/form
// edits, through the yaml Document API). VirtualService: weights (sliders keeping 100), destinations,
// matches, timeout, retries, fault. DestinationRule: subsets.
import { useEffect, useState } from 'react';
import {
  addDestination,
  addMatch,
  addSubset,
  type DocForm,
  type HttpRuleForm,
  type MatchInput,
  removeDestination,
  setDestinationSubset,
  setRouteWeights,
  setRuleFault,
  setRuleRetries,
  setRuleTimeout,
} from './model/form';
import { apportion, setWeight } from './model/weights';

interface Props {
  text: string;
  doc: number;
  form: DocForm | undefined;
  onText: (text: string) => void;
  /** Subsets known for a host (live DestinationRules and the draft's). */
  subsetsFor: (host: string) => string[];
}

/** A text input that writes on blur or Enter (not per keystroke). */
function CommitInput({
  value,
  onCommit,
  ...rest
}: { value: string; onCommit: (v: string) => void } & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value'>) {
  const [v, setV] = useState(value);
  useEffect(() => setV(value), [value]);
  return (
    <input
      {...rest}
      value={v}
      onChange={(e) => setV(e.target.value)}
      onBlur={() => v !== value && onCommit(v)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          if (v !== value) onCommit(v);
        }
      }}
    />
  );
}

function MatchAdder({ onAdd }: { onAdd: (m: MatchInput) => void }) {
  const [m, setM] = useState<MatchInput>({ on: 'header', name: 'end-user', type: 'exact', value: '' });
  const named = m.on !== 'path';
  return (
    <div className="sb-row">
      <span className="muted small">add match</span>
      <select value={m.on} onChange={(e) => setM({ ...m, on: e.target.value as MatchInput['on'] })} aria-label="match on">
        <option value="path">path</option>
        <option value="header">header</option>
        <option value="query">query</option>
      </select>
      {named ? (
        <input
          className="sb-narrow"
          value={m.name ?? ''}
          onChange={(e) => setM({ ...m, name: e.target.value })}
          aria-label="name"
          placeholder="name"
        />
      ) : null}
      <select value={m.type} onChange={(e) => setM({ ...m, type: e.target.value as MatchInput['type'] })} aria-label="match type">
        <option>exact</option>
        <option>prefix</option>
        <option>regex</option>
      </select>
      <input
        className="sb-narrow"
        value={m.value}
        onChange={(e) => setM({ ...m, value: e.target.value })}
        aria-label="value"
        placeholder={m.on === 'path' ? '/api' : 'value'}
      />
      <button type="button" disabled={!m.value || (named && !m.name)} onClick={() => onAdd(m)}>
        add
      </button>
    </div>
  );
}

function RuleEditor({ rule, text, doc, onText, subsetsFor }: Omit<Props, 'form'> & { rule: HttpRuleForm }) {
  const i = rule.index;
  const hosts = [...new Set(rule.destinations.map((d) => d.host))];
  const host = hosts[0] ?? '';
  const used = new Set(rule.destinations.map((d) => d.subset));
  const nextSubset = subsetsFor(host).find((s) => !used.has(s));
  const fault = rule.fault ?? {};
  return (
    <fieldset className="sb-rule" data-testid="sb-rule" data-rule={i}>
      <legend className="mono">
        http[{i}]{rule.name ? ` ${rule.name}` : ''}{' '}
        <span className="muted">· {rule.matches.length ? rule.matches.join(' OR ') : 'every request'}</span>
      </legend>
      {rule.destinations.map((d, j) => {
        const w = rule.weights[j] ?? 0;
        const subsets = subsetsFor(d.host);
        // A destination is its position in the rule (route[j]): the index is its identity.
        const key = `route[${j}]`;
        return (
          <div className="sb-row sb-dest" key={key} data-testid="sb-destination" data-subset={d.subset ?? ''}>
            <span className="mono sb-host" title={d.host}>
              {d.host}
              {d.port ? `:${d.port}` : ''}
            </span>
            <select
              value={d.subset ?? ''}
              aria-label={`subset of destination ${j}`}
              onChange={(e) => onText(setDestinationSubset(text, doc, i, j, e.target.value))}
            >
              <option value="">(no subset)</option>
              {[...new Set([...subsets, ...(d.subset ? [d.subset] : [])])].map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <input
              type="range"
              min={0}
              max={100}
              step={1}
              value={w}
              disabled={rule.destinations.length < 2}
              aria-label={`weight of ${d.subset ?? d.host}`}
              data-testid="weight-slider"
              onChange={(e) => onText(setRouteWeights(text, doc, i, setWeight(rule.weights, j, Number(e.target.value))))}
            />
            <span className="weight sb-pct" data-testid="weight-value">
              {w}%
            </span>
            {rule.destinations.length > 1 ? (
              <button
                type="button"
                className="linklike small"
                aria-label={`remove destination ${d.subset ?? d.host}`}
                onClick={() => {
                  const rest = rule.weights.filter((_, k) => k !== j);
                  onText(removeDestination(text, doc, i, j, apportion(rest, 100)));
                }}
              >
                remove
              </button>
            ) : null}
          </div>
        );
      })}
      <div className="sb-row">
        <button
          type="button"
          data-testid="add-destination"
          disabled={!host}
          onClick={() => onText(addDestination(text, doc, i, { host, ...(nextSubset ? { subset: nextSubset } : {}) }))}
        >
          + destination{nextSubset ? ` (${host} ${nextSubset})` : ''}
        </button>
      </div>
      <MatchAdder onAdd={(m) => onText(addMatch(text, doc, i, m))} />
      <div className="sb-row">
        <span>
          timeout{' '}
          <CommitInput
            aria-label="timeout"
            className="sb-narrow"
            value={rule.timeout ?? ''}
            placeholder="e.g. 2s"
            onCommit={(v) => onText(setRuleTimeout(text, doc, i, v.trim() || undefined))}
          />
        </span>
        <span>
          retries{' '}
          <CommitInput
            aria-label="retry attempts"
            className="sb-tiny"
            value={rule.retries?.attempts !== undefined ? String(rule.retries.attempts) : ''}
            placeholder="n"
            onCommit={(v) => {
              const n = Number.parseInt(v, 10);
              onText(setRuleRetries(text, doc, i, Number.isFinite(n) ? { ...rule.retries, attempts: n } : undefined));
            }}
          />
        </span>
        <span>
          per try{' '}
          <CommitInput
            aria-label="per try timeout"
            className="sb-narrow"
            value={rule.retries?.perTryTimeout ?? ''}
            placeholder="e.g. 500ms"
            onCommit={(v) => onText(setRuleRetries(text, doc, i, { ...rule.retries, perTryTimeout: v.trim() }))}
          />
        </span>
      </div>
      <div className="sb-row">
        <label>
          <input
            type="checkbox"
            checked={!!fault.delay}
            onChange={(e) =>
              onText(
                setRuleFault(text, doc, i, {
                  ...fault,
                  delay: e.target.checked ? { percent: 100, fixedDelay: '5s' } : undefined,
                } as typeof fault),
              )
            }
          />{' '}
          delay
        </label>
        {fault.delay ? (
          <>
            <CommitInput
              className="sb-tiny"
              value={String(fault.delay.percent)}
              aria-label="delay percent"
              onCommit={(v) =>
                onText(
                  setRuleFault(text, doc, i, {
                    ...fault,
                    delay: { ...(fault.delay as NonNullable<typeof fault.delay>), percent: Number(v) || 0 },
                  }),
                )
              }
            />
            %
            <CommitInput
              className="sb-narrow"
              value={fault.delay.fixedDelay}
              aria-label="fixed delay"
              onCommit={(v) =>
                onText(
                  setRuleFault(text, doc, i, { ...fault, delay: { ...(fault.delay as NonNullable<typeof fault.delay>), fixedDelay: v } }),
                )
              }
            />
          </>
        ) : null}
        <label>
          <input
            type="checkbox"
            checked={!!fault.abort}
            onChange={(e) =>
              onText(
                setRuleFault(text, doc, i, {
                  ...fault,
                  abort: e.target.checked ? { percent: 100, httpStatus: 503 } : undefined,
                } as typeof fault),
              )
            }
          />{' '}
          abort
        </label>
        {fault.abort ? (
          <>
            <CommitInput
              className="sb-tiny"
              value={String(fault.abort.percent)}
              aria-label="abort percent"
              onCommit={(v) =>
                onText(
                  setRuleFault(text, doc, i, {
                    ...fault,
                    abort: { ...(fault.abort as NonNullable<typeof fault.abort>), percent: Number(v) || 0 },
                  }),
                )
              }
            />
            % status
            <CommitInput
              className="sb-tiny"
              value={String(fault.abort.httpStatus)}
              aria-label="abort status"
              onCommit={(v) =>
                onText(
                  setRuleFault(text, doc, i, {
                    ...fault,
                    abort: { ...(fault.abort as NonNullable<typeof fault.abort>), httpStatus: Number(v) || 503 },
                  }),
                )
              }
            />
          </>
        ) : null}
      </div>
    </fieldset>
  );
}

function SubsetAdder({ onAdd }: { onAdd: (name: string) => void }) {
  const [name, setName] = useState('');
  return (
    <div className="sb-row">
      <input className="sb-narrow" value={name} onChange={(e) => setName(e.target.value)} placeholder="v3" aria-label="subset name" />
      <button type="button" disabled={!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)} onClick={() => onAdd(name)}>
        + subset (labels version: {name || '…'})
      </button>
    </div>
  );
}

export function FormHelpers(props: Props) {
  const { form, text, doc, onText } = props;
  if (!form) return <p className="muted small">The form helpers return when this document parses again.</p>;
  if (form.kind === 'VirtualService')
    return (
      <div className="sb-form" data-testid="sb-form">
        {form.http.length === 0 ? (
          <p className="muted small">This VirtualService has no http rules (tcp / tls rules are edited in the YAML).</p>
        ) : null}
        {form.http.map((r) => (
          <RuleEditor key={r.index} rule={r} {...props} />
        ))}
      </div>
    );
  if (form.kind === 'DestinationRule')
    return (
      <div className="sb-form" data-testid="sb-form">
        <p className="small">
          subsets of <span className="mono">{form.host}</span>:{' '}
          {form.subsets.map((s) => (
            <span key={s.name} className="label mono">
              {s.name}{' '}
              {Object.entries(s.labels)
                .map(([k, v]) => `${k}=${v}`)
                .join(',')}
            </span>
          ))}
        </p>
        <SubsetAdder onAdd={(name) => onText(addSubset(text, doc, name, { version: name }))} />
      </div>
    );
  return <p className="muted small">No form helpers for {form.objectKind ?? 'this object'}: edit the YAML (completion: Ctrl+Space).</p>;
}
