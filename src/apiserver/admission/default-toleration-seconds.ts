// DefaultTolerationSeconds admission (Kubernetes' plugin/pkg/admission/defaulttolerationseconds):
// a pod that does not tolerate the NoExecute taints of a not-ready or unreachable node gets
// tolerations for them with tolerationSeconds 300 (--default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds), so its node going away evicts it after five minutes.
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

type Obj = Record<string, unknown>;

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
const DEFAULT_TOLERATION_SECONDS = 300;

/** Whether `tolerations` already cover the NoExecute taint `key` (an empty key or effect matches all). */
function tolerates(tolerations: Obj[], key: string): boolean {
  return tolerations.some((t) => (t.key === key || t.key === undefined || t.key === '') && (t.effect === 'NoExecute' || t.effect === undefined || t.effect === ''));
}

export class DefaultTolerationSeconds implements AdmissionPlugin {
  readonly name = 'DefaultTolerationSeconds';

  admit(a: AdmissionAttributes): void {
    if (a.operation === 'DELETE' || a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object) return;
    const spec = (a.object.spec ?? {}) as Obj;
    const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as Obj[]) : [];
    const added: Obj[] = [];
    for (const key of [NOT_READY_TAINT, UNREACHABLE_TAINT]) {
      if (!tolerates(tolerations, key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
    }
    if (added.length === 0) return;
    spec.tolerations = [...tolerations, ...added];
    a.object.spec = spec;
  }
}
