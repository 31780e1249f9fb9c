// Visibility by exportTo (model/push_context.go:IsServiceVisible) and label selection. Host name rules
// (matching, SubsetOf, short names) live in server/model/host.

/**
 * exportTo visibility (IsServiceVisible / the DR and VS indexes): empty → the mesh default (MeshConfig
 * default{Service,VirtualService,DestinationRule}ExportTo, `*` unless set; push_context.go exportToDefaults);
 * `*` → all; `~` → nobody; `.` → the owner's namespace; a namespace name → that namespace only.
 */
export function isVisibleTo(
  written: readonly string[],
  ownerNamespace: string,
  namespace: string,
  meshDefault: readonly string[] = [],
): boolean {
  const exportTo = written.length === 0 ? meshDefault : written;
  if (exportTo.length === 0) return true;
  if (exportTo.includes('*')) return true;
  if (exportTo.includes('.') && ownerNamespace === namespace) return true;
  return exportTo.includes(namespace);
}

/** label-selector subset: every selector label is present with the same value. */
export function labelsMatch(selector: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}
