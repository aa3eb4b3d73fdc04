// The kinds the ReplicaSet controller runs: ReplicaSets (apps/v1, a metav1.LabelSelector) and
// ReplicationControllers (core/v1, a map selector), and the resources it reads and writes.
import type { KubeObject, ResourceRef } from '../../client/types.js';
import { LabelSelector, labelSelectorAsSelector, type LabelSelectorObject } from '../../machinery/selectors/index.js';

export const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
export const REPLICASETS: ResourceRef = { group: 'apps', version: 'v1', resource: 'replicasets' };
export const REPLICATIONCONTROLLERS: ResourceRef = { group: '', version: 'v1', resource: 'replicationcontrollers' };

export interface ReplicaSetKind {
  name: string;
  ref: ResourceRef;
  apiVersion: string;
  kind: string;
  /** The selector of an owner: metav1.LabelSelector for ReplicaSets, a map for ReplicationControllers. */
  selector(owner: KubeObject): LabelSelector;
}

export const REPLICASET_KIND: ReplicaSetKind = {
  name: 'replicaset-controller',
  ref: REPLICASETS,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  selector: (rs) => labelSelectorAsSelector(((rs.spec ?? {}) as { selector?: LabelSelectorObject }).selector),
};

export const REPLICATIONCONTROLLER_KIND: ReplicaSetKind = {
  name: 'replicationcontroller-controller',
  ref: REPLICATIONCONTROLLERS,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  selector: (rc) => {
    const sel = ((rc.spec ?? {}) as { selector?: Record<string, string> | null }).selector;
    return sel && Object.keys(sel).length ? LabelSelector.fromSet(sel) : LabelSelector.nothing();
  },
};
