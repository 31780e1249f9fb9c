// Form helpers over one draft document, both ways: `readForm` reads what the helpers show from the YAML
// (VirtualService http rules and their destinations, DestinationRule subsets), and the edit functions
// write a helper's change back into that document through the yaml Document API (comments and the rest of
// the text survive; see draftDocs.editDraftDoc). Field names are Istio's networking/v1 API.
import { type Document, isMap, isSeq } from 'yaml';
import { editDraftDoc, parseDraft } from './draftDocs';
import { effectiveWeights } from './weights';

export interface DestinationForm {
  host: string;
  subset?: string;
  port?: number;
  /** As written (undefined = unset). */
  weight?: number;
}

export interface FaultForm {
  delay?: { percent: number; fixedDelay: string };
  abort?: { percent: number; httpStatus: number };
}

export interface HttpRuleForm {
  index: number;
  name?: string;
  /** The rule's match blocks in words (`uri prefix /api, header end-user exact jason`); empty = every request. */
  matches: string[];
  destinations: DestinationForm[];
  /** Weights as Istio reads them (sum 100 when valid). */
  weights: number[];
  timeout?: string;
  retries?: { attempts?: number; perTryTimeout?: string; retryOn?: string };
  fault?: FaultForm;
}

export type DocForm =
  | { kind: 'VirtualService'; name?: string; hosts: string[]; http: HttpRuleForm[] }
  | { kind: 'DestinationRule'; name?: string; host: string; subsets: { name: string; labels: Record<string, string> }[] }
  | { kind: 'other'; name?: string; objectKind?: string };

type Js = Record<string, unknown>;
const obj = (v: unknown): Js => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Js) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function stringMatch(m: unknown): string {
  const s = obj(m);
  for (const k of ['exact', 'prefix', 'regex']) if (str(s[k]) !== undefined) return `${k} ${s[k] as string}`;
  return 'any';
}

/** One HTTPMatchRequest in words. */
export function matchWords(m: unknown): string {
  const o = obj(m);
  const parts: string[] = [];
  if (o.uri) parts.push(`uri ${stringMatch(o.uri)}`);
  if (o.method) parts.push(`method ${stringMatch(o.method)}`);
  if (o.authority) parts.push(`authority ${stringMatch(o.authority)}`);
  for (const [k, v] of Object.entries(obj(o.headers))) parts.push(`header ${k} ${stringMatch(v)}`);
  for (const [k, v] of Object.entries(obj(o.queryParams))) parts.push(`query ${k} ${stringMatch(v)}`);
  if (num(o.port) !== undefined) parts.push(`port ${o.port as number}`);
  return parts.join(', ') || 'any request';
}

function readRule(r: unknown, index: number): HttpRuleForm {
  const o = obj(r);
  const destinations: DestinationForm[] = list(o.route).map((rd) => {
    const d = obj(obj(rd).destination);
    const out: DestinationForm = { host: str(d.host) ?? '' };
    const subset = str(d.subset);
    const port = num(obj(d.port).number);
    const weight = num(obj(rd).weight);
    if (subset !== undefined) out.subset = subset;
    if (port !== undefined) out.port = port;
    if (weight !== undefined) out.weight = weight;
    return out;
  });
  const rule: HttpRuleForm = {
    index,
    matches: list(o.match).map(matchWords),
    destinations,
    weights: effectiveWeights(destinations.map((d) => d.weight)),
  };
  const name = str(o.name);
  const timeout = str(o.timeout);
  if (name !== undefined) rule.name = name;
  if (timeout !== undefined) rule.timeout = timeout;
  if (o.retries) {
    const rt = obj(o.retries);
    const retries: NonNullable<HttpRuleForm['retries']> = {};
    if (num(rt.attempts) !== undefined) retries.attempts = rt.attempts as number;
    if (str(rt.perTryTimeout) !== undefined) retries.perTryTimeout = rt.perTryTimeout as string;
    if (str(rt.retryOn) !== undefined) retries.retryOn = rt.retryOn as string;
    rule.retries = retries;
  }
  if (o.fault) {
    const f = obj(o.fault);
    const fault: FaultForm = {};
    const pct = (x: Js) => num(obj(x.percentage).value) ?? 100;
    if (f.delay) fault.delay = { percent: pct(obj(f.delay)), fixedDelay: str(obj(f.delay).fixedDelay) ?? '' };
    if (f.abort) fault.abort = { percent: pct(obj(f.abort)), httpStatus: num(obj(f.abort).httpStatus) ?? 0 };
    rule.fault = fault;
  }
  return rule;
}

/** What the form helpers show for document `index` of the draft; undefined when it does not parse. */
export function readForm(text: string, index: number): DocForm | undefined {
  const doc = parseDraft(text).docs[index];
  if (!doc || doc.errors.length) return undefined;
  let js: Js;
  try {
    js = obj(doc.toJS());
  } catch {
    return undefined;
  }
  const spec = obj(js.spec);
  const name = str(obj(js.metadata).name);
  const named = <T extends object>(f: T) => (name !== undefined ? { ...f, name } : f);
  if (js.kind === 'VirtualService')
    return named({
      kind: 'VirtualService' as const,
      hosts: list(spec.hosts).filter((h): h is string => typeof h === 'string'),
      http: list(spec.http).map(readRule),
    });
  if (js.kind === 'DestinationRule')
    return named({
      kind: 'DestinationRule' as const,
      host: str(spec.host) ?? '',
      subsets: list(spec.subsets).map((s) => ({
        name: str(obj(s).name) ?? '',
        labels: Object.fromEntries(Object.entries(obj(obj(s).labels)).map(([k, v]) => [k, String(v)])),
      })),
    });
  const objectKind = str(js.kind);
  return named({ kind: 'other' as const, ...(objectKind ? { objectKind } : {}) });
}

const rulePath = (rule: number) => ['spec', 'http', rule];

/** Sets every destination's weight of http[rule] (one destination: the weight is removed, it gets 100%). */
export function setRouteWeights(text: string, doc: number, rule: number, weights: readonly number[]): string {
  return editDraftDoc(text, doc, (d) => {
    const route = d.getIn([...rulePath(rule), 'route']);
    if (!isSeq(route)) return;
    if (route.items.length === 1) {
      d.deleteIn([...rulePath(rule), 'route', 0, 'weight']);
      return;
    }
    for (let j = 0; j < route.items.length; j++) d.setIn([...rulePath(rule), 'route', j, 'weight'], weights[j] ?? 0);
  });
}

/** Appends a destination to http[rule] with weight 0 (the sliders then move traffic to it). */
export function addDestination(text: string, doc: number, rule: number, dest: { host: string; subset?: string; port?: number }): string {
  return editDraftDoc(text, doc, (d) => {
    const path = [...rulePath(rule), 'route'];
    const route = d.getIn(path);
    const destination: Js = { host: dest.host };
    if (dest.subset) destination.subset = dest.subset;
    if (dest.port) destination.port = { number: dest.port };
    const count = isSeq(route) ? route.items.length : 0;
    if (count === 1) d.setIn([...path, 0, 'weight'], 100);
    const item = d.createNode(count === 0 ? { destination } : { destination, weight: 0 });
    if (isSeq(route)) route.items.push(item);
    else d.setIn(path, d.createNode([count === 0 ? { destination } : { destination, weight: 0 }]));
  });
}

/** Removes destination `dest` of http[rule]; its weight goes to the others (sum stays 100). */
export function removeDestination(text: string, doc: number, rule: number, dest: number, weightsAfter: readonly number[]): string {
  const removed = editDraftDoc(text, doc, (d) => {
    d.deleteIn([...rulePath(rule), 'route', dest]);
  });
  return setRouteWeights(removed, doc, rule, weightsAfter);
}

export function setDestinationSubset(text: string, doc: number, rule: number, dest: number, subset: string): string {
  return editDraftDoc(text, doc, (d) => {
    const p = [...rulePath(rule), 'route', dest, 'destination', 'subset'];
    if (subset) d.setIn(p, subset);
    else d.deleteIn(p);
  });
}

export interface MatchInput {
  on: 'path' | 'header' | 'query';
  /** Header or query parameter name. */
  name?: string;
  type: 'exact' | 'prefix' | 'regex';
  value: string;
}

/** Adds a match block to http[rule] (blocks are ORed; a rule without match matched everything before). */
export function addMatch(text: string, doc: number, rule: number, m: MatchInput): string {
  const cond = { [m.type]: m.value };
  const block: Js =
    m.on === 'path' ? { uri: cond } : m.on === 'header' ? { headers: { [m.name ?? '']: cond } } : { queryParams: { [m.name ?? '']: cond } };
  return editDraftDoc(text, doc, (d) => {
    const path = [...rulePath(rule), 'match'];
    const match = d.getIn(path);
    if (isSeq(match)) match.items.push(d.createNode(block));
    else {
      // A new `match` goes first in the rule, where people read it.
      const r = d.getIn(rulePath(rule));
      if (!isMap(r)) return;
      r.items.unshift(d.createPair('match', [block]) as (typeof r.items)[number]);
    }
  });
}

const setOrDelete = (d: Document.Parsed, path: (string | number)[], value: unknown) => {
  if (value === undefined) d.deleteIn(path);
  else d.setIn(path, d.createNode(value));
};

/** `timeout: 2s` on http[rule]; undefined removes it. */
export function setRuleTimeout(text: string, doc: number, rule: number, timeout: string | undefined): string {
  return editDraftDoc(text, doc, (d) => setOrDelete(d, [...rulePath(rule), 'timeout'], timeout || undefined));
}

export function setRuleRetries(text: string, doc: number, rule: number, retries: HttpRuleForm['retries'] | undefined): string {
  return editDraftDoc(text, doc, (d) => {
    if (!retries) return void d.deleteIn([...rulePath(rule), 'retries']);
    for (const k of ['attempts', 'perTryTimeout', 'retryOn'] as const)
      setOrDelete(d, [...rulePath(rule), 'retries', k], retries[k] || undefined);
  });
}

export function setRuleFault(text: string, doc: number, rule: number, fault: FaultForm | undefined): string {
  return editDraftDoc(text, doc, (d) => {
    const base = [...rulePath(rule), 'fault'];
    if (!fault || (!fault.delay && !fault.abort)) return void d.deleteIn(base);
    setOrDelete(
      d,
      [...base, 'delay'],
      fault.delay ? { percentage: { value: fault.delay.percent }, fixedDelay: fault.delay.fixedDelay } : undefined,
    );
    setOrDelete(
      d,
      [...base, 'abort'],
      fault.abort ? { percentage: { value: fault.abort.percent }, httpStatus: fault.abort.httpStatus } : undefined,
    );
  });
}

/** Adds `subsets[] {name, labels}` to a DestinationRule document. */
export function addSubset(text: string, doc: number, name: string, labels: Record<string, string>): string {
  return editDraftDoc(text, doc, (d) => {
    const subsets = d.getIn(['spec', 'subsets']);
    const node = d.createNode({ name, labels });
    if (isSeq(subsets)) subsets.items.push(node);
    else d.setIn(['spec', 'subsets'], d.createNode([{ name, labels }]));
  });
}
