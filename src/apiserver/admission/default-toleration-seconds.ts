// DefaultTolerationSeconds admission (Kubernetes' plugin/pkg/admission/defaulttolerationseconds):
// a pod that does not tolerate the NoExecute taints of a not-ready or unreachable node gets
// tolerations for them with tolerationSeconds 300 (--default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds), so its node going away evicts it after five minutes.
import type { Pod, Toleration } from '../../api/types.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
const DEFAULT_TOLERATION_SECONDS = 300;

/** Whether `tolerations` already cover the NoExecute taint `key` (an empty key or effect matches all). */
function tolerates(tolerations: readonly Toleration[], key: string): boolean {
  return tolerations.some((t) => (t.key === key || t.key === undefined || t.key === '') && (t.effect === 'NoExecute' || t.effect === undefined || t.effect === ''));
}

/** The toleration this plugin adds for the NoExecute taint `key`. */
function defaultToleration(key: string): Toleration {
  return { key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS };
}

const NONE: readonly Toleration[] = [];

export class DefaultTolerationSeconds implements AdmissionPlugin {
  readonly name = 'DefaultTolerationSeconds';

  admit(a: AdmissionAttributes): void {
    if (a.operation === 'DELETE' || a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object) return;
    const pod: Pod = a.object;
    const spec = pod.spec ?? {};
    const tolerations = spec.tolerations ?? NONE;
    // Checked one by one (no list of taints to walk): this runs on every pod create.
    const notReady = !tolerates(tolerations, NOT_READY_TAINT);
    const unreachable = !tolerates(tolerations, UNREACHABLE_TAINT);
    if (!notReady && !unreachable) return;
    const next = [...tolerations];
    if (notReady) next.push(defaultToleration(NOT_READY_TAINT));
    if (unreachable) next.push(defaultToleration(UNREACHABLE_TAINT));
    spec.tolerations = next;
    pod.spec = spec;
  }
}
