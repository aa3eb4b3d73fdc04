// apps/v1beta2 (k8s.io/api/apps/v1beta2): the same structs as apps/v1 under the v1beta2 names,
// plus the version's own Scale. Field numbers, JSON tags and list/patch markers are identical to
// apps/v1 (only the defaults and the served Scale differ, see ./defaults.ts).
import { VersionDeriver } from '../schema/derive.js';
import { declareScale } from './scale.js';
import * as v1 from './v1.js';

const d = new VersionDeriver('io.k8s.api.apps.v1.', 'io.k8s.api.apps.v1beta2.');

export const StatefulSet = d.struct(v1.StatefulSet);
export const StatefulSetList = d.struct(v1.StatefulSetList);
export const Deployment = d.struct(v1.Deployment);
export const DeploymentList = d.struct(v1.DeploymentList);
export const DaemonSet = d.struct(v1.DaemonSet);
export const DaemonSetList = d.struct(v1.DaemonSetList);
export const ReplicaSet = d.struct(v1.ReplicaSet);
export const ReplicaSetList = d.struct(v1.ReplicaSetList);
export const ControllerRevision = d.struct(v1.ControllerRevision);
export const ControllerRevisionList = d.struct(v1.ControllerRevisionList);

export const { ScaleSpec, ScaleStatus, Scale } = declareScale('io.k8s.api.apps.v1beta2.', true);
