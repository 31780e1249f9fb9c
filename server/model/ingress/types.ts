// Shared types of the Ingress conversion.
import type { KubeObject } from '../parse/objects';
import type { KubeIngress } from '../schema/ingress';

/** Something istiod logs and skips while converting an Ingress (located on the Ingress by the caller). */
export interface IngressProblem {
  ingress: KubeObject<KubeIngress>;
  path: string;
  message: string;
  severity?: 'warning' | 'info';
}
