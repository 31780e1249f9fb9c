'use client';
// The VirtualService rule behind a route, from translation's provenance (never re-derived from the dump):
// `spec.http[i]` (and `.match[j]`) of the VirtualService, and for a route merged from a delegate
// VirtualService, the delegate and its rule (the delegate object is loaded by its config path).
import { stringify } from 'yaml';
import { useConfigObject } from '@/components/data/proxyDetailData';
import { configPath } from '@/server/translate/provenance';
import type { RouteRuleSource } from '@/server/api/contract';

/** `http[3]` → 3. */
export const ruleIndex = (rule: string | undefined): number | undefined => {
  const m = /^http\[(\d+)\]$/.exec(rule ?? '');
  return m ? Number(m[1]) : undefined;
};

interface HttpSpecLike {
  http?: unknown[];
}

/** ` · spec.http[i].match[j]`, plus ` → delegate ns/name spec.http[k]`. */
export function RuleLabel({ source, testId }: { source: RouteRuleSource; testId: string }) {
  const d = source.delegate;
  return (
    <span data-testid={testId}>
      {' '}
      · <span className="mono">spec.{source.rule}</span>
      {source.match !== undefined ? <span className="mono">.match[{source.match}]</span> : null}
      {d ? (
        <span>
          {' '}
          → delegate{' '}
          <span className="mono">
            {d.namespace}/{d.name} spec.{d.rule}
          </span>
        </span>
      ) : null}
      <span className="muted small"> (from translation)</span>
    </span>
  );
}

function DelegateRuleYaml({ source, testId }: { source: RouteRuleSource; testId: string }) {
  const d = source.delegate;
  const q = useConfigObject(d ? configPath('VirtualService', d.namespace, d.name) : undefined);
  if (!d) return null;
  if (q.isPending) return <p className="muted small">Loading delegate {`${d.namespace}/${d.name}`}…</p>;
  if (q.error) return <p className="error-text small">Could not load the delegate: {q.error.message}</p>;
  const i = ruleIndex(d.rule);
  const spec = (q.data.object as { spec?: HttpSpecLike }).spec;
  return (
    <>
      <div className="small muted">
        the delegate&apos;s rule ({d.namespace}/{d.name} spec.{d.rule}):
      </div>
      <pre className="mono rule" data-testid={testId}>
        {stringify(i !== undefined ? (spec?.http?.[i] ?? {}) : {})}
      </pre>
    </>
  );
}

/** The rule's YAML out of the (root) VirtualService's spec, and the delegate's rule when there is one. */
export function RuleYaml({
  source,
  spec,
  testId,
  className,
}: {
  source: RouteRuleSource;
  spec: HttpSpecLike;
  testId: string;
  className: string;
}) {
  const i = ruleIndex(source.rule);
  return (
    <>
      <div className="small muted">{source.delegate ? 'the delegating rule:' : 'the http rule:'}</div>
      <pre className={`mono ${className}`} data-testid={testId}>
        {stringify(i !== undefined ? (spec.http?.[i] ?? {}) : {})}
      </pre>
      {source.delegate ? <DelegateRuleYaml source={source} testId={`${testId}-delegate`} /> : null}
    </>
  );
}
