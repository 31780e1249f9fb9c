// The sandbox apply (issue #9 §4): how a draft's edits reach the source they were drafted over.
import type { DraftEdit } from '../../sandbox/types';

export type ApplyMode = 'demo' | 'files' | 'kube';

export interface ApplyItem {
  op: 'put' | 'delete';
  /** `Kind namespace/name` */
  object: string;
  /** Files: the file written or removed. */
  file?: string;
  /** Kubernetes: the server-side dry-run's (or the apply's) answer for this object. */
  ok?: boolean;
  message?: string;
}

export interface ApplyOutcome {
  mode: ApplyMode;
  /** False for a preview (no `confirm: true`) or when the dry run failed. */
  applied: boolean;
  items: ApplyItem[];
  /** Kubernetes: the server-side dry run ran first and every object passed it. */
  dryRun?: { ok: boolean };
  message?: string;
}

/** Who an apply runs as (sign-in modes): Kubernetes writes impersonate this user and its groups. */
export interface ActingUser {
  user: string;
  groups: readonly string[];
}

export interface Applier {
  readonly mode: ApplyMode;
  /** What applying would do (Kubernetes: runs the server-side dry run). Never changes anything. */
  plan(edits: readonly DraftEdit[], as?: ActingUser): Promise<ApplyOutcome>;
  /** Applies (Kubernetes: dry run first; nothing is written when it fails). */
  apply(edits: readonly DraftEdit[], as?: ActingUser): Promise<ApplyOutcome>;
  /** Demo: back to the embedded mesh. */
  reset?(): Promise<void>;
}

export const describeEdit = (e: DraftEdit): string => {
  if (e.op === 'delete') return `${e.ref.kind} ${e.ref.namespace ? `${e.ref.namespace}/` : ''}${e.ref.name}`;
  const md = (e.object.metadata ?? {}) as { name?: string; namespace?: string };
  return `${String(e.object.kind)} ${md.namespace ? `${md.namespace}/` : ''}${md.name ?? ''}`;
};
