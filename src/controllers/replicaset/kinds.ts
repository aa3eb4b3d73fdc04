// The kinds the ReplicaSet controller runs: ReplicaSets (apps/v1, a metav1.LabelSelector) and
// ReplicationControllers (core/v1, a map selector), and the resources it reads and writes.
import type { ReplicaSet, ReplicationController } from '../../api/types.js';
import type { ResourceRef } from '../../client/types.js';
import { LabelSelector, labelSelectorAsSelector } from '../../machinery/selectors/index.js';
import type { ReplicaSetLike } from './spec.js';

export const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
export const REPLICASETS: ResourceRef = { group: 'apps', version: 'v1', resource: 'replicasets' };
export const REPLICATIONCONTROLLERS: ResourceRef = { group: '', version: 'v1', resource: 'replicationcontrollers' };

export interface ReplicaSetKind {
  name: string;
  ref: ResourceRef;
  apiVersion: string;
  kind: string;
  /** The selector of an owner: metav1.LabelSelector for ReplicaSets, a map for ReplicationControllers. */
  selector(owner: ReplicaSetLike): LabelSelector;
}

// Each kind's selector reads only objects of its own informer, so it knows which of the two kinds
// it holds.
export const REPLICASET_KIND: ReplicaSetKind = {
  name: 'replicaset-controller',
  ref: REPLICASETS,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  selector: (rs) => labelSelectorAsSelector((rs as ReplicaSet).spec?.selector),
};

export const REPLICATIONCONTROLLER_KIND: ReplicaSetKind = {
  name: 'replicationcontroller-controller',
  ref: REPLICATIONCONTROLLERS,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  selector: (rc) => {
    const sel = (rc as ReplicationController).spec?.selector;
    return sel && Object.keys(sel).length ? LabelSelector.fromSet(sel) : LabelSelector.nothing();
  },
};
