// The VolumeBinding plugin of kube-scheduler (pkg/scheduler/framework/plugins/volumebinding): a pod
// whose claims are missing or unbound in Immediate mode is not scheduled; a bound claim's volume must
// admit the node; an unbound claim of a WaitForFirstConsumer class needs, on the node, either an
// Available volume to bind (chosen here and pre-bound before the pod is bound) or a provisioner
// allowed there (the claim is then annotated with the node and the PV controller provisions). The
// pod is bound only once every claim is.
import { annotationsOf, isBeingDeleted, nameOf, namespaceOf, ownerReferencesOf, uidOf } from '../api/meta/object.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../api/types.js';

type TopologySelectorTerm = NonNullable<StorageClass['allowedTopologies']>[number];
import type { Lister, ResourceClient } from '../client/types.js';
import { sleep } from '../client/wait.js';
import { ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE } from '../machinery/volumes/annotations.js';
import { podClaimNames } from '../machinery/volumes/storage.js';
import { bestVolumeFor, claimClass, requestedBytes, volumeNodeAffinityMatches, type NodeLabels } from '../machinery/volumes/claim-matching.js';

export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
export const ERR_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

export interface VolumeListers {
  claims: Lister;
  volumes: Lister;
  classes: Lister;
}

/** What PreFilter found for a pod with claims. */
export interface PodVolumes {
  /** Claims with a volume name, and that volume (undefined when it does not exist). */
  bound: { claim: PersistentVolumeClaim; volume: PersistentVolume | undefined }[];
  /** Unbound claims of WaitForFirstConsumer classes, smallest request first. */
  toBind: { claim: PersistentVolumeClaim; storageClass: StorageClass }[];
}

/** PreFilter: the pod's claims sorted into bound and to-bind, or why no node can take the pod (unresolvable). */
export function volumePreFilter(pod: Pod, listers: VolumeListers): { volumes?: PodVolumes; error?: string } {
  const refs = podClaimNames(pod);
  if (refs.length === 0) return {};
  const ns = namespaceOf(pod);
  const volumes: PodVolumes = { bound: [], toBind: [] };
  let unboundImmediate = false;
  for (const ref of refs) {
    const claim = listers.claims.get(ns, ref.name) as PersistentVolumeClaim | undefined;
    if (!claim) return { error: `persistentvolumeclaim "${ref.name}" not found` };
    if (isBeingDeleted(claim)) return { error: `persistentvolumeclaim "${ref.name}" is being deleted` };
    if (ref.ephemeral && !ownerReferencesOf(claim).some((o) => o.controller === true && o.uid === uidOf(pod))) {
      return { error: `PVC ${ns}/${ref.name} was not created for pod ${ns}/${nameOf(pod)} (pod is not owner)` };
    }
    const volumeName = claim.spec?.volumeName;
    if (volumeName) {
      volumes.bound.push({ claim, volume: listers.volumes.get('', volumeName) as PersistentVolume | undefined });
      continue;
    }
    const storageClass = listers.classes.get('', claimClass(claim)) as StorageClass | undefined;
    if (storageClass?.volumeBindingMode === 'WaitForFirstConsumer') volumes.toBind.push({ claim, storageClass });
    else unboundImmediate = true;
  }
  if (unboundImmediate) return { error: ERR_UNBOUND_IMMEDIATE };
  volumes.toBind.sort((a, b) => requestedBytes(a.claim) - requestedBytes(b.claim));
  return { volumes };
}

/** What binding the pod's claims on one node takes. */
export interface NodeVolumeDecision {
  reasons: string[];
  /** Claims to pre-bind to a chosen Available volume. */
  staticBindings: { claim: PersistentVolumeClaim; volume: PersistentVolume }[];
  /** Claims to provision on the node. */
  provisions: PersistentVolumeClaim[];
}

function topologyAllows(terms: TopologySelectorTerm[] | null | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (!terms || terms.length === 0) return true;
  return terms.some((t) => (t.matchLabelExpressions ?? []).every((e) => typeof e.key === 'string' && Object.hasOwn(labels, e.key) && (e.values ?? []).includes(labels[e.key]!)));
}

/** FindPodVolumes for one node; `reserved` are volumes promised to pods still being bound. */
export function findPodVolumes(pv: PodVolumes, node: NodeLabels, allVolumes: readonly PersistentVolume[], reserved: ReadonlySet<string>): NodeVolumeDecision {
  const reasons: string[] = [];
  let nodeConflict = false;
  let missing = false;
  for (const b of pv.bound) {
    if (!b.volume) missing = true;
    else if (!volumeNodeAffinityMatches(b.volume, node)) nodeConflict = true;
  }
  const chosen = new Set(reserved);
  const staticBindings: NodeVolumeDecision['staticBindings'] = [];
  const provisions: PersistentVolumeClaim[] = [];
  let unboundOk = true;
  for (const { claim, storageClass } of pv.toBind) {
    const volume = bestVolumeFor(claim, allVolumes, { node, exclude: chosen });
    if (volume) {
      chosen.add(nameOf(volume));
      staticBindings.push({ claim, volume });
      continue;
    }
    const provisioner = storageClass.provisioner ?? '';
    if (provisioner === '' || provisioner === NO_PROVISIONER || !topologyAllows(storageClass.allowedTopologies, node.labels)) unboundOk = false;
    else provisions.push(claim);
  }
  if (nodeConflict) reasons.push(ERR_NODE_CONFLICT);
  if (!unboundOk) reasons.push(ERR_BIND_CONFLICT);
  if (missing) reasons.push(ERR_PV_NOT_EXIST);
  return { reasons, staticBindings, provisions };
}

export interface VolumeClients {
  claims: ResourceClient;
  volumes: ResourceClient;
}

/**
 * PreBind: pre-bind the chosen volumes (their claimRef, as the PV controller would), annotate the
 * claims to provision with the node, then wait until the PV controller has bound every claim.
 */
export async function bindPodVolumes(decision: NodeVolumeDecision, node: string, listers: VolumeListers, clients: VolumeClients, timeoutMs: number, signal: AbortSignal): Promise<void> {
  for (const { claim, volume } of decision.staticBindings) {
    const claimRef = { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: namespaceOf(claim), name: nameOf(claim), uid: uidOf(claim), resourceVersion: claim.metadata?.resourceVersion };
    const annotations = { ...annotationsOf(volume), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
    await clients.volumes.update('', { ...volume, metadata: { ...volume.metadata, annotations }, spec: { ...volume.spec, claimRef } });
  }
  for (const claim of decision.provisions) {
    if (annotationsOf(claim)[ANN_SELECTED_NODE] === node) continue;
    await clients.claims.patch(namespaceOf(claim), nameOf(claim), 'merge', { metadata: { annotations: { [ANN_SELECTED_NODE]: node } } });
  }
  const claims = [...decision.staticBindings.map((s) => s.claim), ...decision.provisions];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = claims.filter((c) => {
      const current = listers.claims.get(namespaceOf(c), nameOf(c)) as PersistentVolumeClaim | undefined;
      if (!current || uidOf(current) !== uidOf(c)) throw new Error(`persistentvolumeclaim "${nameOf(c)}" was deleted`);
      return current.status?.phase !== 'Bound';
    });
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error(`binding volumes: timed out waiting for the condition (claims ${pending.map((c) => nameOf(c)).join(', ')} not bound)`);
    await sleep(100, signal);
    if (signal.aborted) throw new Error('scheduler stopped');
  }
}
