// extensions/v1beta1 (k8s.io/api/extensions/v1beta1): the workload kinds it served (Deployment,
// DaemonSet, ReplicaSet), derived from apps/v1. Differences: selectors are optional (defaulted from
// the template labels), Deployment has the deprecated spec.rollbackTo (field 8) and the
// DeploymentRollback kind, DaemonSet has the deprecated spec.templateGeneration (field 5); plus
// its own Scale.
import { deriveDeploymentSpecWithRollback, optionalSelector } from '../apps/beta.js';
import { declareRollback } from '../apps/rollback.js';
import { declareScale } from '../apps/scale.js';
import * as apps from '../apps/v1.js';
import { VersionDeriver } from '../schema/derive.js';
import { field, t } from '../schema/dsl.js';

const P = 'io.k8s.api.extensions.v1beta1.';
const d = new VersionDeriver('io.k8s.api.apps.v1.', P);

export const { RollbackConfig, DeploymentRollback } = declareRollback(P);

export const DeploymentSpec = deriveDeploymentSpecWithRollback(d, RollbackConfig);
export const Deployment = d.struct(apps.Deployment, { add: { spec: field(DeploymentSpec, 2) } });
export const DeploymentList = d.struct(apps.DeploymentList);

export const DaemonSetSpec = d.struct(apps.DaemonSetSpec, {
  add: {
    selector: optionalSelector(1),
    /** Deprecated; set by the server on create (kept in apps/v1 as an annotation). */
    templateGeneration: field(t.int64, 5),
  },
  order: ['selector', 'template', 'updateStrategy', 'minReadySeconds', 'templateGeneration', 'revisionHistoryLimit'],
});
export const DaemonSet = d.struct(apps.DaemonSet, { add: { spec: field(DaemonSetSpec, 2) } });
export const DaemonSetList = d.struct(apps.DaemonSetList);

export const ReplicaSetSpec = d.struct(apps.ReplicaSetSpec, { add: { selector: optionalSelector(2) } });
export const ReplicaSet = d.struct(apps.ReplicaSet, { add: { spec: field(ReplicaSetSpec, 2) } });
export const ReplicaSetList = d.struct(apps.ReplicaSetList);

export const { ScaleSpec, ScaleStatus, Scale } = declareScale(P);
