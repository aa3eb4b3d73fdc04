// Priority admission (Kubernetes' plugin/pkg/admission/priority). Pods: on create the priority
// and preemption policy come from the PriorityClass the pod names (or the global default class
// when it names none, priority 0 and PreemptLowerPriority when there is none); a pod that sets a
// different priority or policy itself is refused; on update the values set at create are kept.
// PriorityClasses: at most one may be the global default. (That the system classes cannot be
// deleted is the PriorityClass module's, as in Kubernetes it is the REST storage's.)
import type { Pod, PriorityClass } from '../../api/types.js';
import { nameOf } from '../../api/meta/object.js';
import type { ClusterObjects } from './cluster-objects.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';
/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
const DEFAULT_PRIORITY = 0;

export class PriorityAdmission implements AdmissionPlugin {
  readonly name = 'Priority';

  constructor(private readonly classes: ClusterObjects<PriorityClass>) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || !a.object) return;
    const pod: Pod = a.object;
    const spec = (pod.spec ??= {});
    if (a.operation === 'UPDATE') {
      // Validation forbids changing them; a write that leaves them out keeps the created values.
      const old: Pod | undefined = a.oldObject;
      if ((spec.priority === undefined || spec.priority === null) && typeof old?.spec?.priority === 'number') spec.priority = old.spec.priority;
      if ((spec.preemptionPolicy === undefined || spec.preemptionPolicy === null) && typeof old?.spec?.preemptionPolicy === 'string') spec.preemptionPolicy = old.spec.preemptionPolicy;
      return;
    }
    if (a.operation !== 'CREATE') return;
    let priority: number;
    let policy: string | undefined;
    const className = spec.priorityClassName ?? '';
    if (className === '') {
      const dpc = await this.defaultClass();
      spec.priorityClassName = dpc ? nameOf(dpc) : '';
      if (spec.priorityClassName === '') delete spec.priorityClassName;
      priority = dpc ? (dpc.value ?? 0) : DEFAULT_PRIORITY;
      policy = dpc ? (dpc.preemptionPolicy ?? undefined) : DEFAULT_PREEMPTION_POLICY;
    } else {
      const pc = await this.classes.get(className);
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
      priority = pc.value ?? 0;
      policy = pc.preemptionPolicy ?? undefined;
    }
    if (typeof spec.priority === 'number' && spec.priority !== priority) {
      throw admissionForbidden(a, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
    }
    spec.priority = priority;
    if (policy !== undefined) {
      if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== policy) {
        throw admissionForbidden(a, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
      }
      spec.preemptionPolicy = policy;
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.group !== 'scheduling.k8s.io' || a.resource !== 'priorityclasses' || a.operation === 'DELETE') return;
    const pc: PriorityClass | undefined = a.object;
    if (!pc || pc.globalDefault !== true) return;
    const dpc = await this.defaultClass();
    if (dpc && (a.operation === 'CREATE' || nameOf(dpc) !== nameOf(pc))) {
      throw admissionForbidden(a, `PriorityClass ${nameOf(dpc)} is already marked as default. Only one default can exist`);
    }
  }

  /** The global default class; with several (a race), the one of lowest value. */
  private async defaultClass(): Promise<PriorityClass | undefined> {
    let found: PriorityClass | undefined;
    for (const pc of await this.classes.list()) {
      if (pc.globalDefault === true && (!found || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
    }
    return found;
  }
}
