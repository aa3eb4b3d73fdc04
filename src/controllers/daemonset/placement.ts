// Where a DaemonSet's pods go (Kubernetes' NodeShouldRunDaemonPod and the daemonset util): the
// template's nodeName, nodeSelector and required node affinity, the node's taints against the
// template's tolerations plus the tolerations every daemon pod gets.
import { labelsOf, nameOf } from '../../api/meta/object.js';
import type { DaemonSet, Node, NodeSelectorTerm, Pod, PodSpec, Taint, Toleration } from '../../api/types.js';
import { compileNodeSelectorTerms, toleratesTaint } from '../../machinery/selectors/node-affinity.js';

/** AddOrUpdateDaemonPodTolerations: what every daemon pod tolerates. */
export function addDaemonPodTolerations(spec: PodSpec): void {
  const add = (t: Toleration): void => {
    const list = (spec.tolerations ??= []);
    const i = list.findIndex((x) => (x.key ?? '') === t.key && (x.effect ?? '') === t.effect && (x.operator ?? 'Equal') === t.operator && (x.value ?? '') === (t.value ?? ''));
    if (i >= 0) list[i] = t;
    else list.push(t);
  };
  add({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' });
  add({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' });
  add({ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' });
  add({ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' });
  add({ key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' });
  add({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' });
  if (spec.hostNetwork) add({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
}

function untolerated(taints: Taint[], tolerations: Toleration[], effects: string[]): boolean {
  return taints.some((taint) => effects.includes(taint.effect ?? '') && !tolerations.some((t) => toleratesTaint(t, taint)));
}

/** nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): nodeSelector and the required terms (ORed). */
export function matchesRequiredNodeAffinity(spec: PodSpec, node: Node): boolean {
  const labels = labelsOf(node);
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return compileNodeSelectorTerms(required.nodeSelectorTerms)(labels, nameOf(node));
}

/** The daemon pod's spec for a node: the template's, with the daemon tolerations. */
export function daemonPodSpec(ds: DaemonSet): PodSpec {
  const spec = structuredClone(ds.spec?.template?.spec ?? {});
  addDaemonPodTolerations(spec);
  return spec;
}

/** NodeShouldRunDaemonPod: [shouldRun, shouldContinueRunning]. */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet, spec: PodSpec = daemonPodSpec(ds)): [boolean, boolean] {
  if (spec.nodeName && spec.nodeName !== nameOf(node)) return [false, false];
  if (!matchesRequiredNodeAffinity(spec, node)) return [false, false];
  const taints = node.spec?.taints ?? [];
  const tolerations = spec.tolerations ?? [];
  if (untolerated(taints, tolerations, ['NoExecute', 'NoSchedule'])) return [false, !untolerated(taints, tolerations, ['NoExecute'])];
  return [true, true];
}

/** util.GetTargetNodeName: spec.nodeName, else the node named by the affinity's metadata.name matchFields. */
export function targetNodeName(pod: Pod): string | undefined {
  const spec = pod.spec ?? {};
  if (spec.nodeName) return spec.nodeName;
  for (const term of spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/** util.ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become one metadata.name In [node] term. */
export function replaceNodeNameAffinity(spec: PodSpec, nodeName: string): void {
  const term: NodeSelectorTerm = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
  const affinity = (spec.affinity ??= {});
  const nodeAffinity = (affinity.nodeAffinity ??= {});
  // the node's term replaces every required term (their label expressions were checked already)
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [term] };
}
