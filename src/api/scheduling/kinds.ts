// scheduling.k8s.io/v1 PriorityClass (cluster-scoped; SetDefaults_PriorityClass fills preemptionPolicy).
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

/** SetDefaults_PriorityClass: preemptionPolicy PreemptLowerPriority when unset. */
export function defaultPriorityClass(obj: KubeObject): void {
  if (obj.preemptionPolicy === undefined || obj.preemptionPolicy === null) obj.preemptionPolicy = 'PreemptLowerPriority';
}

export const schedulingKinds: readonly KindVersion[] = [
  { group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', resource: 'priorityclasses', singular: 'priorityclass', shortNames: ['pc'], namespaced: false, type: v1.PriorityClass, list: v1.PriorityClassList, storage: true, defaults: defaultPriorityClass },
];
