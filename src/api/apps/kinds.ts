// The apps kinds in every served version: apps/v1 (storage), apps/v1beta2, apps/v1beta1.
// extensions/v1beta1's are in ../extensions/kinds.ts.
import type { KindVersion } from '../schema/kind.js';
import { appsV1beta1Conversion, appsV1beta2Conversion } from './conversion.js';
import { appsV1beta1Defaults, appsV1beta2Defaults, appsV1Defaults } from './defaults.js';
import * as v1 from './v1.js';
import * as v1beta1 from './v1beta1.js';
import * as v1beta2 from './v1beta2.js';

const G = 'apps';

/** Discovery facts shared by every version of a kind. */
export const deploymentNames = { kind: 'Deployment', resource: 'deployments', singular: 'deployment', shortNames: ['deploy'], categories: ['all'], namespaced: true } as const;
export const replicaSetNames = { kind: 'ReplicaSet', resource: 'replicasets', singular: 'replicaset', shortNames: ['rs'], categories: ['all'], namespaced: true } as const;
export const daemonSetNames = { kind: 'DaemonSet', resource: 'daemonsets', singular: 'daemonset', shortNames: ['ds'], categories: ['all'], namespaced: true } as const;
export const statefulSetNames = { kind: 'StatefulSet', resource: 'statefulsets', singular: 'statefulset', shortNames: ['sts'], categories: ['all'], namespaced: true } as const;
export const controllerRevisionNames = { kind: 'ControllerRevision', resource: 'controllerrevisions', singular: 'controllerrevision', namespaced: true } as const;

const appsV1: KindVersion[] = [
  { group: G, version: 'v1', ...deploymentNames, type: v1.Deployment, list: v1.DeploymentList, storage: true, defaults: appsV1Defaults.deployment, subresources: { status: true, scale: true } },
  { group: G, version: 'v1', ...replicaSetNames, type: v1.ReplicaSet, list: v1.ReplicaSetList, storage: true, defaults: appsV1Defaults.replicaSet, subresources: { status: true, scale: true } },
  { group: G, version: 'v1', ...daemonSetNames, type: v1.DaemonSet, list: v1.DaemonSetList, storage: true, defaults: appsV1Defaults.daemonSet, subresources: { status: true } },
  { group: G, version: 'v1', ...statefulSetNames, type: v1.StatefulSet, list: v1.StatefulSetList, storage: true, defaults: appsV1Defaults.statefulSet, subresources: { status: true, scale: true } },
  { group: G, version: 'v1', ...controllerRevisionNames, type: v1.ControllerRevision, list: v1.ControllerRevisionList, storage: true },
];

const c2 = appsV1beta2Conversion;
const appsV1beta2: KindVersion[] = [
  { group: G, version: 'v1beta2', ...deploymentNames, type: v1beta2.Deployment, list: v1beta2.DeploymentList, storage: false, defaults: appsV1beta2Defaults.deployment, toHub: c2.deployment.toHub, fromHub: c2.deployment.fromHub, scaleKind: v1beta2.Scale, subresources: { status: true, scale: true } },
  { group: G, version: 'v1beta2', ...replicaSetNames, type: v1beta2.ReplicaSet, list: v1beta2.ReplicaSetList, storage: false, defaults: appsV1beta2Defaults.replicaSet, toHub: c2.replicaSet.toHub, fromHub: c2.replicaSet.fromHub, scaleKind: v1beta2.Scale, subresources: { status: true, scale: true } },
  { group: G, version: 'v1beta2', ...daemonSetNames, type: v1beta2.DaemonSet, list: v1beta2.DaemonSetList, storage: false, defaults: appsV1beta2Defaults.daemonSet, toHub: c2.daemonSet.toHub, fromHub: c2.daemonSet.fromHub, subresources: { status: true } },
  { group: G, version: 'v1beta2', ...statefulSetNames, type: v1beta2.StatefulSet, list: v1beta2.StatefulSetList, storage: false, defaults: appsV1beta2Defaults.statefulSet, toHub: c2.statefulSet.toHub, fromHub: c2.statefulSet.fromHub, scaleKind: v1beta2.Scale, subresources: { status: true, scale: true } },
  { group: G, version: 'v1beta2', ...controllerRevisionNames, type: v1beta2.ControllerRevision, list: v1beta2.ControllerRevisionList, storage: false, toHub: c2.controllerRevision.toHub, fromHub: c2.controllerRevision.fromHub },
];

const c1 = appsV1beta1Conversion;
const appsV1beta1: KindVersion[] = [
  { group: G, version: 'v1beta1', ...deploymentNames, type: v1beta1.Deployment, list: v1beta1.DeploymentList, storage: false, defaults: appsV1beta1Defaults.deployment, toHub: c1.deployment.toHub, fromHub: c1.deployment.fromHub, scaleKind: v1beta1.Scale, subresources: { status: true, scale: true, rollback: true } },
  { group: G, version: 'v1beta1', ...statefulSetNames, type: v1beta1.StatefulSet, list: v1beta1.StatefulSetList, storage: false, defaults: appsV1beta1Defaults.statefulSet, toHub: c1.statefulSet.toHub, fromHub: c1.statefulSet.fromHub, scaleKind: v1beta1.Scale, subresources: { status: true, scale: true } },
  { group: G, version: 'v1beta1', ...controllerRevisionNames, type: v1beta1.ControllerRevision, list: v1beta1.ControllerRevisionList, storage: false, toHub: c1.controllerRevision.toHub, fromHub: c1.controllerRevision.fromHub },
];

export const appsKinds: readonly KindVersion[] = [...appsV1, ...appsV1beta2, ...appsV1beta1];
