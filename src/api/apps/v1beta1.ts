// apps/v1beta1 (k8s.io/api/apps/v1beta1): Deployment, StatefulSet and ControllerRevision, derived
// from apps/v1. Differences: Deployment and StatefulSet selectors are optional (defaulted from the
// template labels), Deployment has the deprecated spec.rollbackTo (field 8) and the
// DeploymentRollback kind, StatefulSetStatus.observedGeneration is a pointer; plus its own Scale.
import { VersionDeriver } from '../schema/derive.js';
import { field, t } from '../schema/dsl.js';
import { deriveDeploymentSpecWithRollback, optionalSelector } from './beta.js';
import { declareRollback } from './rollback.js';
import { declareScale } from './scale.js';
import * as v1 from './v1.js';

const P = 'io.k8s.api.apps.v1beta1.';
const d = new VersionDeriver('io.k8s.api.apps.v1.', P);

export const { RollbackConfig, DeploymentRollback } = declareRollback(P);

export const DeploymentSpec = deriveDeploymentSpecWithRollback(d, RollbackConfig);
export const Deployment = d.struct(v1.Deployment, { add: { spec: field(DeploymentSpec, 2) } });
export const DeploymentList = d.struct(v1.DeploymentList);

export const StatefulSetSpec = d.struct(v1.StatefulSetSpec, { add: { selector: optionalSelector(2) } });
export const StatefulSetStatus = d.struct(v1.StatefulSetStatus, {
  add: { observedGeneration: field(t.int64, 1, { pointer: true }) },
});
export const StatefulSet = d.struct(v1.StatefulSet, {
  add: { spec: field(StatefulSetSpec, 2), status: field(StatefulSetStatus, 3) },
});
export const StatefulSetList = d.struct(v1.StatefulSetList);

export const ControllerRevision = d.struct(v1.ControllerRevision);
export const ControllerRevisionList = d.struct(v1.ControllerRevisionList);

export const { ScaleSpec, ScaleStatus, Scale } = declareScale(P);
