// ReplicaSets (and ReplicationControllers, which the same controller runs) as the controller reads
// them: typed once where they enter from an informer or the API, with the API's defaults.
import type { Pod, ReplicaSet, ReplicaSetStatus, ReplicationController } from '../../api/types.js';
import type { KubeObject } from '../../client/types.js';

/** A ReplicaSet or a ReplicationController: they differ only in the form of their selector. */
export type ReplicaSetLike = ReplicaSet | ReplicationController;

// Informers and the API hand objects over as JSON the API server validated against the schema
// api/types.ts is derived from: these are the one place that JSON becomes typed.
export const asReplicaSet = (o: KubeObject): ReplicaSetLike => o as ReplicaSetLike;
export const asPod = (o: KubeObject): Pod => o as Pod;

/** spec.replicas with its default of 1 (of a ReplicaSet, a ReplicationController or a Deployment). */
export function specReplicas(obj: { spec?: { replicas?: number | null } | null }): number {
  const r = obj.spec?.replicas;
  return typeof r === 'number' ? r : 1;
}

export const minReadySecondsOf = (rs: ReplicaSetLike): number => rs.spec?.minReadySeconds ?? 0;

/** The status (a ReplicationController's has the same fields as a ReplicaSet's). */
export const statusOf = (rs: ReplicaSetLike): ReplicaSetStatus => rs.status ?? {};
