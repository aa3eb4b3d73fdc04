// NodeRestriction (Kubernetes' plugin/pkg/admission/noderestriction): a node's credential
// (user system:node:<name> in system:nodes) may only change its own Node (not its taints, not
// labels under node-restriction.kubernetes.io/ or unknown kubernetes.io / k8s.io labels), only
// create mirror pods bound to itself and owned by its Node, only update the status of, evict or
// delete pods bound to itself, only touch its own Lease in kube-node-lease, and only request tokens
// bound to pods on itself. Other users are not concerned.
import { labelsOf, metadataOf, nameOf, uidOf } from '../../api/meta/object.js';
import type { Node, Pod, TokenRequest } from '../../api/types.js';
import type { UserInfo } from '../auth/types.js';
import { podConfigMapNames } from '../../machinery/pods/references.js';
import { isMirrorPod, podReferencesSecrets } from './service-account.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

export const NODES_GROUP = 'system:nodes';
const NODE_USER_PREFIX = 'system:node:';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Labels a kubelet sets on its Node (kubeletapis.KubeletLabels) and the namespaces it may use. */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname', 'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
  'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type', 'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/region', 'topology.kubernetes.io/zone', 'node.kubernetes.io/windows-build',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

export interface PodLookup {
  pod(namespace: string, name: string): Promise<Pod | undefined>;
}

const NONE: readonly never[] = [];

/** The node the pod is bound to ('' when it is not, or there is no pod). */
function boundNode(pod: Pod | undefined): string {
  return pod?.spec?.nodeName ?? '';
}

/** The node a user is, as Kubernetes' default node identifier tells (undefined: not a node; '' : a node user without a name). */
export function nodeNameOf(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}

function labelNamespace(label: string): string {
  const slash = label.indexOf('/');
  return slash < 0 ? '' : label.slice(0, slash);
}

function within(ns: string, domain: string): boolean {
  return ns === domain || ns.endsWith(`.${domain}`);
}

/** Labels added, removed or changed. */
function modifiedLabels(next: Record<string, string>, old: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(next), ...Object.keys(old)]);
  return [...keys].filter((k) => next[k] !== old[k]);
}

function forbiddenLabels(labels: string[]): string[] {
  return labels
    .filter((label) => {
      const ns = labelNamespace(label);
      if (within(ns, 'node-restriction.kubernetes.io')) return true;
      const kubernetesLabel = within(ns, 'kubernetes.io') || within(ns, 'k8s.io');
      const kubeletLabel = KUBELET_LABELS.has(label) || KUBELET_LABEL_NAMESPACES.some((d) => within(ns, d));
      return kubernetesLabel && !kubeletLabel;
    })
    .sort();
}

export class NodeRestriction implements AdmissionPlugin {
  readonly name = 'NodeRestriction';

  constructor(private readonly pods: PodLookup) {}

  // A mutating plugin in Kubernetes (it implements Admit): its refusals come before the object's validation.
  async admit(a: AdmissionAttributes): Promise<void> {
    const nodeName = nodeNameOf(a.user);
    if (nodeName === undefined) return;
    if (nodeName === '') throw admissionForbidden(a, `could not determine node from user ${JSON.stringify(a.user.name)}`);
    const gr = `${a.group}/${a.resource}`;
    switch (gr) {
      case '/pods':
        return this.admitPod(nodeName, a);
      case '/nodes':
        return this.admitNode(nodeName, a);
      case 'coordination.k8s.io/leases':
        return this.admitLease(nodeName, a);
      case '/serviceaccounts':
        if (a.subresource === 'token') return this.admitTokenRequest(nodeName, a);
        return;
      default:
        return;
    }
  }

  private async admitPod(nodeName: string, a: AdmissionAttributes): Promise<void> {
    switch (a.subresource) {
      case '':
        if (a.operation === 'CREATE') return this.admitPodCreate(nodeName, a);
        if (a.operation === 'DELETE') {
          if (boundNode(a.oldObject) !== nodeName) throw admissionForbidden(a, `node ${JSON.stringify(nodeName)} can only delete pods with spec.nodeName set to itself`);
          return;
        }
        throw admissionForbidden(a, `unexpected operation ${JSON.stringify(a.operation)}, node ${JSON.stringify(nodeName)} can only create and delete mirror pods`);
      case 'status':
        if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation ${JSON.stringify(a.operation)}`);
        if (boundNode(a.oldObject) !== nodeName) throw admissionForbidden(a, `node ${JSON.stringify(nodeName)} can only update pod status for pods with spec.nodeName set to itself`);
        return;
      case 'eviction': {
        const pod: Pod | undefined = a.oldObject ?? (await this.pods.pod(a.namespace, a.name));
        if (!pod) return; // the eviction answers 404 itself
        if (boundNode(pod) !== nodeName) throw admissionForbidden(a, `node ${JSON.stringify(nodeName)} can only evict pods with spec.nodeName set to itself`);
        return;
      }
      default:
        throw admissionForbidden(a, `unexpected pod subresource ${JSON.stringify(a.subresource)}, only 'status' and 'eviction' are allowed`);
    }
  }

  private admitPodCreate(nodeName: string, a: AdmissionAttributes): void {
    const pod: Pod = a.object!;
    const spec = pod.spec ?? {};
    const q = JSON.stringify(nodeName);
    if (!isMirrorPod(pod)) throw admissionForbidden(a, `pod does not have "kubernetes.io/config.mirror" annotation, node ${q} can only create mirror pods`);
    if (boundNode(pod) !== nodeName) throw admissionForbidden(a, `node ${q} can only create pods with spec.nodeName set to itself`);
    // Every reference counts here, with a uid or not (ownerReferencesOf keeps only those with one).
    const owners = metadataOf(pod).ownerReferences ?? NONE;
    if (owners.length === 0) throw admissionForbidden(a, `node ${q} can only create pods with an owner reference set to itself`);
    if (owners.length > 1) throw admissionForbidden(a, `node ${q} can only create pods with a single owner reference set to itself`);
    const owner = owners[0]!;
    if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName || owner.controller !== true) {
      throw admissionForbidden(a, `node ${q} can only create pods with a controller owner reference set to itself`);
    }
    if (spec.serviceAccountName) throw admissionForbidden(a, `node ${q} can not create pods that reference a service account`);
    if (podReferencesSecrets(spec)) throw admissionForbidden(a, `node ${q} can not create pods that reference secrets`);
    if (podConfigMapNames(spec).length > 0) throw admissionForbidden(a, `node ${q} can not create pods that reference configmaps`);
    if ((spec.volumes ?? NONE).some((v) => v.persistentVolumeClaim !== undefined || v.ephemeral !== undefined)) throw admissionForbidden(a, `node ${q} can not create pods that use persistent volumes`);
  }

  private admitNode(nodeName: string, a: AdmissionAttributes): void {
    const requested = a.name !== '' ? a.name : a.object ? nameOf(a.object) : '';
    const q = JSON.stringify(nodeName);
    if (requested !== nodeName) throw admissionForbidden(a, `node ${q} is not allowed to modify node ${JSON.stringify(requested)}`);
    if (a.operation === 'CREATE') {
      const node: Node = a.object!;
      if (node.spec?.configSource !== undefined) throw admissionForbidden(a, `node ${q} is not allowed to create pods with a non-nil configSource`);
      const forbidden = forbiddenLabels(modifiedLabels(labelsOf(node), {}));
      if (forbidden.length > 0) throw admissionForbidden(a, `node ${q} is not allowed to set the following labels: ${forbidden.join(', ')}`);
    }
    if (a.operation === 'UPDATE') {
      const node: Node = a.object!;
      const old: Node = a.oldObject!;
      if (JSON.stringify(node.spec?.configSource ?? null) !== JSON.stringify(old.spec?.configSource ?? null)) {
        throw admissionForbidden(a, `node ${q} is not allowed to update configSource`);
      }
      if (JSON.stringify(node.spec?.taints ?? []) !== JSON.stringify(old.spec?.taints ?? [])) throw admissionForbidden(a, `node ${q} is not allowed to modify taints`);
      const forbidden = forbiddenLabels(modifiedLabels(labelsOf(node), labelsOf(old)));
      if (forbidden.length > 0) throw admissionForbidden(a, `is not allowed to modify labels: ${forbidden.join(', ')}`);
    }
  }

  private admitLease(nodeName: string, a: AdmissionAttributes): void {
    if (a.namespace !== NODE_LEASE_NAMESPACE) throw admissionForbidden(a, `can only access leases in the ${JSON.stringify(NODE_LEASE_NAMESPACE)} system namespace`);
    const name = a.name !== '' ? a.name : a.object ? nameOf(a.object) : '';
    if (name !== nodeName) throw admissionForbidden(a, 'can only access node lease with the same name as the requesting node');
  }

  private async admitTokenRequest(nodeName: string, a: AdmissionAttributes): Promise<void> {
    const request: TokenRequest | undefined = a.object;
    const ref = request?.spec?.boundObjectRef;
    // An empty reference binds to nothing either.
    if (!ref || Object.keys(ref).length === 0) throw admissionForbidden(a, 'node requested token not bound to a pod');
    if (ref.kind !== 'Pod') throw admissionForbidden(a, `node requested token bound to a ${ref.kind ?? ''}, not a pod`);
    const pod = await this.pods.pod(a.namespace, ref.name ?? '');
    if (!pod) throw admissionForbidden(a, `node requested token bound to a pod that does not exist`);
    if (ref.uid && ref.uid !== uidOf(pod)) throw admissionForbidden(a, 'the UID in the bound object reference does not match the UID in record');
    if (boundNode(pod) !== nodeName) throw admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
  }
}
