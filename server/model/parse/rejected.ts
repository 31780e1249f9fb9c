// Istio objects that fail Istio's validation (pkg/config/validation) but can still be read. istiod never
// translates them: its validating webhook refuses them at apply time, so in a cluster they never reach it, and
// meshscope, reading files, does what istiod would. `istioctl analyze` on files still analyzes them (and
// reports IST0106 SchemaValidationError), so meshscope keeps them in the snapshot for the analyzers only
// (MeshSnapshot.rejectedConfigs) and says, once per object, that it is not translated and why.
import type { LoadError, ObjectMeta } from '../mesh';

/**
 * The one located note per Istio object that is not translated (beside its validation errors), and why:
 * `readable` — it fails Istio's validation and is kept for the analyzers; otherwise a value has the wrong type,
 * so nothing of it can be read (a proto decoder refuses it too) and it is neither translated nor analyzed.
 */
export function notTranslated(kind: string, meta: Pick<ObjectMeta, 'name' | 'namespace'>, errors: number, readable: boolean): LoadError {
  const n = `${errors} error${errors === 1 ? '' : 's'}`;
  return {
    severity: 'warning',
    notTranslated: true,
    object: `${kind} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}`,
    message: readable
      ? `not translated: fails Istio validation (${n}), so istiod's validating webhook would reject it and no proxy gets config from it; analyze still checks it`
      : `not translated: cannot be read (${n}: a field has the wrong type), so neither istiod nor analyze can use it`,
  };
}
