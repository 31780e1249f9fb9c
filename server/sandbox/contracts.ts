// Routing contracts file (README "Routing contracts"): YAML, `contracts:` → a list of {name, proxy,
// request, expect}. Validated with zod; problems are located (line/column, field path). Pure.
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { simRequestSchema } from '../simulate/requestSchema';
import { nodeAt } from './draft';
import type { RoutingContract, SandboxProblem } from './types';

/** At most this many contracts in one file or request. */
export const MAX_CONTRACTS = 500;

/** A contract's request: the simulator's, with `mode` defaulting to outbound. */
export const contractRequestSchema = simRequestSchema.extend({ mode: simRequestSchema.shape.mode.default('outbound') });

const percent = z.number().min(0).max(100);
const expectSchema = z.union([
  z.strictObject({ error: z.string().min(1) }),
  z.strictObject({ host: z.string().min(1), subset: z.string().min(1).optional(), port: z.number().int().min(1).max(65535).optional() }),
  z.strictObject({ cluster: z.string().min(1), minPercent: percent.optional(), maxPercent: percent.optional() }),
]);

export const contractSchema = z.strictObject({
  name: z.string().min(1).max(200),
  proxy: z.string().min(1),
  request: contractRequestSchema,
  expect: expectSchema,
});

const fileSchema = z.union([
  z.strictObject({ contracts: z.array(contractSchema).max(MAX_CONTRACTS) }),
  z.array(contractSchema).max(MAX_CONTRACTS),
]);

/** Drops keys whose value is undefined (zod output → the contract types, which have optional keys). */
function clean<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export function toContract(c: z.infer<typeof contractSchema>): RoutingContract {
  return clean(c) as RoutingContract;
}

export function parseContracts(text: string): { contracts: RoutingContract[]; errors: SandboxProblem[] } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const p = lc.linePos(offset);
    return { line: p.line, column: p.col };
  };
  if (doc.errors.length > 0)
    return {
      contracts: [],
      errors: doc.errors.map((e) => ({ level: 'error', message: `YAML: ${e.message.split('\n')[0]}`, ...at(e.pos[0]) })),
    };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { contracts: [], errors: [{ level: 'error', message: `YAML: ${(e as Error).message}` }] };
  }
  const res = fileSchema.safeParse(value ?? { contracts: [] });
  if (res.success) {
    const list = Array.isArray(res.data) ? res.data : res.data.contracts;
    return { contracts: list.map(toContract), errors: [] };
  }
  // The union hides which branch the user meant: re-check the list they wrote for field-level errors.
  const list = Array.isArray(value) ? value : (value as { contracts?: unknown } | null)?.contracts;
  const prefix = Array.isArray(value) ? '' : 'contracts';
  const errors: SandboxProblem[] = [];
  if (!Array.isArray(list))
    return { contracts: [], errors: [{ level: 'error', message: 'expected `contracts:` with a list of contracts', line: 1, column: 1 }] };
  list.forEach((item, i) => {
    const r = contractSchema.safeParse(item);
    if (r.success) return;
    for (const issue of r.error.issues) {
      const path = [`${prefix}[${i}]`, ...issue.path.map(String)]
        .join('.')
        .replace(/\.(\d+)(?=\.|$)/g, '[$1]')
        .replace(/^\./, '');
      const node = nodeAt(doc.contents as never, path);
      errors.push({ level: 'error', message: issue.message, path, ...(node?.range ? at(node.range[0]) : {}) });
    }
  });
  if (list.length > MAX_CONTRACTS) errors.push({ level: 'error', message: `too many contracts (limit ${MAX_CONTRACTS})` });
  return { contracts: [], errors };
}
