// Priority admission (Kubernetes' plugin/pkg/admission/priority) for pods on create: the pod's
// priority and preemption policy come from its PriorityClass. kubelite serves no PriorityClass
// objects, so the classes are the two every Kubernetes cluster bootstraps; a pod naming another
// class is refused as Kubernetes refuses a class that does not exist, and a pod naming none gets
// priority 0 and PreemptLowerPriority (no global default class exists).
import type { Pod } from '../../api/types.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  'system-node-critical': 2_000_001_000,
  'system-cluster-critical': 2_000_000_000,
};
const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';

export class PriorityAdmission implements AdmissionPlugin {
  readonly name = 'Priority';

  admit(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object) return;
    const pod: Pod = a.object;
    const spec = pod.spec ?? {};
    const className = spec.priorityClassName ?? '';
    let priority = 0;
    if (className !== '') {
      const value = SYSTEM_PRIORITY_CLASSES[className];
      if (value === undefined) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
      priority = value;
    }
    if (typeof spec.priority === 'number' && spec.priority !== priority) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
      );
    }
    spec.priority = priority;
    if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== DEFAULT_PREEMPTION_POLICY) {
      throw admissionForbidden(
        a,
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${DEFAULT_PREEMPTION_POLICY} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = DEFAULT_PREEMPTION_POLICY;
    pod.spec = spec;
  }
}
