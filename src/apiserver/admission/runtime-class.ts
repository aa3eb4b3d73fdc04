// RuntimeClass admission (Kubernetes' plugin/pkg/admission/runtimeclass), on pod creation: a pod
// naming a RuntimeClass gets the class's overhead (refused when it sets another one itself) and
// its scheduling constraints (node selector merged, refused on a conflicting value; tolerations
// merged); a pod naming a class that does not exist is refused, and a pod may not set an overhead
// no class gives it.
import type { Pod, RuntimeClass } from '../../api/types.js';
import { parseQuantity } from '../../api/meta/quantity.js';
import { goQuote } from '../../machinery/patch/gofmt.js';
import type { ClusterObjects } from './cluster-objects.js';
import { mergeTolerations } from './tolerations.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

type ResourceList = Record<string, string>;

/** apiequality.Semantic.DeepEqual of two resource lists: same names, equal quantities (nil == empty). */
function sameResources(a: ResourceList | null | undefined, b: ResourceList | null | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  return ak.every((k) => {
    if (!b || !(k in b)) return false;
    const x = parseQuantity(a![k]!);
    const y = parseQuantity(b[k]!);
    return x !== undefined && y !== undefined ? x.equals(y) : a![k] === b[k];
  });
}

const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

export class RuntimeClassAdmission implements AdmissionPlugin {
  readonly name = 'RuntimeClass';

  constructor(private readonly classes: ClusterObjects<RuntimeClass>) {}

  /** The pod of a create this plugin handles, and its RuntimeClass (undefined when it names none). */
  private async prepare(a: AdmissionAttributes): Promise<{ pod: Pod; rc: RuntimeClass | undefined } | undefined> {
    if (a.operation !== 'CREATE' || a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || !a.object) return undefined;
    const pod: Pod = a.object;
    const name = pod.spec?.runtimeClassName;
    if (name === undefined || name === null) return { pod, rc: undefined };
    const rc = await this.classes.get(name);
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass ${goQuote(name)} not found`);
    return { pod, rc };
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    const prepared = await this.prepare(a);
    if (!prepared?.rc) return;
    const { pod, rc } = prepared;
    const spec = (pod.spec ??= {});
    if (rc.overhead) {
      const podFixed = rc.overhead.podFixed ?? undefined;
      if (spec.overhead && !sameResources(podFixed, spec.overhead)) throw admissionForbidden(a, OVERHEAD_MISMATCH);
      if (podFixed) spec.overhead = { ...podFixed };
      else delete spec.overhead;
    }
    if (rc.scheduling) {
      const runtimeSelector = rc.scheduling.nodeSelector ?? undefined;
      if (spec.nodeSelector === undefined || spec.nodeSelector === null) {
        if (runtimeSelector) spec.nodeSelector = { ...runtimeSelector };
      } else {
        for (const [key, value] of Object.entries(runtimeSelector ?? {})) {
          const podValue = spec.nodeSelector[key];
          if (podValue !== undefined && podValue !== value) {
            throw admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`);
          }
          spec.nodeSelector[key] = value;
        }
      }
      const merged = mergeTolerations(spec.tolerations ?? [], rc.scheduling.tolerations ?? []);
      if (merged.length > 0) spec.tolerations = merged;
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const prepared = await this.prepare(a);
    if (!prepared) return;
    const { pod, rc } = prepared;
    if (rc?.overhead) {
      if (!sameResources(rc.overhead.podFixed, pod.spec?.overhead)) throw admissionForbidden(a, OVERHEAD_MISMATCH);
    } else if (pod.spec?.overhead !== undefined && pod.spec.overhead !== null) {
      throw admissionForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    }
  }
}
