// How many pods a budget expects (getExpectedPodCount): minAvailable as a number counts the pods
// the budget selects; a percentage, or maxUnavailable, is taken of the sum of the scales of the
// pods' controllers: Deployments (through their ReplicaSets), ReplicaSets, StatefulSets,
// ReplicationControllers, and any other kind through its scale subresource (custom resources too,
// found through discovery).
import { controllerRefOf, groupOfApiVersion, nameOf, uidOf } from '../../api/meta/object.js';
import type { OwnerReference, Pod, PodDisruptionBudget } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { DeferredDiscoveryRESTMapper } from '../../client/rest-mapper.js';
import type { Clientset, KubeObject, Lister } from '../../client/types.js';
import { scaledValue } from '../deployment/spec.js';

export interface ControllerListers {
  replicationControllers: Lister;
  replicaSets: Lister;
  deployments: Lister;
  statefulSets: Lister;
}

interface ControllerScale {
  uid: string;
  scale: number;
}

export interface ExpectedPods {
  expectedCount: number;
  desiredHealthy: number;
  /** Pods the budget selects that no controller owns. */
  unmanagedPods: string[];
}

const replicasOf = (o: KubeObject): number => {
  const r = (o.spec as { replicas?: number } | undefined)?.replicas;
  return typeof r === 'number' ? r : 1;
};

/** verifyGroupKind: the reference names `kind` in one of `groups`. */
const refersTo = (ref: OwnerReference, kind: string, groups: readonly string[]): boolean => ref.kind === kind && groups.includes(groupOfApiVersion(ref.apiVersion ?? ''));

/** The object the reference names, if the lister has it with the same uid. */
function owned(lister: Lister, namespace: string, ref: OwnerReference): KubeObject | undefined {
  const o = lister.get(namespace, ref.name ?? '');
  return o && uidOf(o) === ref.uid ? o : undefined;
}

const APPS = ['apps', 'extensions'];

export class ExpectedPodCounter {
  constructor(
    private readonly listers: ControllerListers,
    private readonly clientset: Clientset,
    private readonly mapper: DeferredDiscoveryRESTMapper,
  ) {}

  async count(pdb: PodDisruptionBudget, pods: readonly Pod[]): Promise<ExpectedPods> {
    const spec = pdb.spec ?? {};
    if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
      const { expectedCount, unmanagedPods } = await this.expectedScale(pods);
      const maxUnavailable = scaledValue(spec.maxUnavailable, expectedCount, true);
      return { expectedCount, desiredHealthy: Math.max(0, expectedCount - maxUnavailable), unmanagedPods };
    }
    const minAvailable = spec.minAvailable;
    if (typeof minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
    if (typeof minAvailable === 'string') {
      const { expectedCount, unmanagedPods } = await this.expectedScale(pods);
      return { expectedCount, desiredHealthy: scaledValue(minAvailable, expectedCount, true), unmanagedPods };
    }
    return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
  }

  /** getExpectedScale: the sum of the scales of the pods' controllers, each counted once. */
  private async expectedScale(pods: readonly Pod[]): Promise<{ expectedCount: number; unmanagedPods: string[] }> {
    const scales = new Map<string, number>();
    const unmanagedPods: string[] = [];
    const seen = new Set<string>();
    for (const pod of pods) {
      const ref = controllerRefOf(pod);
      if (!ref) {
        unmanagedPods.push(nameOf(pod));
        continue;
      }
      if (seen.has(ref.uid ?? '')) continue;
      const found = await this.controllerScale(ref, pod.metadata?.namespace ?? '');
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(nameOf(pod))}`);
      seen.add(ref.uid ?? '');
      scales.set(found.uid, found.scale);
    }
    let expectedCount = 0;
    for (const s of scales.values()) expectedCount += s;
    return { expectedCount, unmanagedPods };
  }

  /** The finders in Kubernetes' order; the first that knows the controller answers. */
  private async controllerScale(ref: OwnerReference, namespace: string): Promise<ControllerScale | undefined> {
    const { replicationControllers, replicaSets, deployments, statefulSets } = this.listers;
    if (refersTo(ref, 'ReplicationController', [''])) {
      const rc = owned(replicationControllers, namespace, ref);
      if (rc) return { uid: uidOf(rc), scale: replicasOf(rc) };
    }
    if (refersTo(ref, 'ReplicaSet', APPS)) {
      const rs = owned(replicaSets, namespace, ref);
      if (rs) {
        const rsOwner = controllerRefOf(rs);
        if (rsOwner && refersTo(rsOwner, 'Deployment', APPS)) {
          const d = owned(deployments, namespace, rsOwner);
          if (d) return { uid: uidOf(d), scale: replicasOf(d) };
        }
        // a ReplicaSet a Deployment controls counts through the Deployment, or not at all
        if (!rsOwner || rsOwner.kind !== 'Deployment') return { uid: uidOf(rs), scale: replicasOf(rs) };
      }
    }
    if (refersTo(ref, 'StatefulSet', ['apps'])) {
      const ss = owned(statefulSets, namespace, ref);
      if (ss) return { uid: uidOf(ss), scale: replicasOf(ss) };
    }
    return this.scaleSubresource(ref, namespace);
  }

  /** getScaleController: any kind that serves a scale subresource. */
  private async scaleSubresource(ref: OwnerReference, namespace: string): Promise<ControllerScale | undefined> {
    const mapping = await this.mapper.mappingFor(ref.apiVersion ?? '', ref.kind ?? '');
    const groupResource = mapping.resource.group === '' ? mapping.resource.resource : `${mapping.resource.resource}.${mapping.resource.group}`;
    let scale: KubeObject;
    try {
      scale = await this.clientset.resource({ ...mapping.resource, namespaced: mapping.namespaced, kind: mapping.kind }).get(namespace, ref.name ?? '', { subresource: 'scale' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // NotFound: either the object is gone, or its kind has no scale subresource
      const info = await this.mapper.resourceFor({ group: mapping.resource.group, resource: mapping.resource.resource, version: mapping.resource.version });
      if (!info?.subresources.includes('scale')) throw new Error(`${groupResource} does not implement the scale subresource`);
      return undefined;
    }
    if (uidOf(scale) !== ref.uid) return undefined;
    const replicas = (scale.spec as { replicas?: number } | undefined)?.replicas;
    return { uid: uidOf(scale), scale: typeof replicas === 'number' ? replicas : 0 };
  }
}
