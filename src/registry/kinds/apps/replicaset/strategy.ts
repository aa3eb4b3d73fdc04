// apps/v1 ReplicaSet: pkg/apis/apps/validation and pkg/registry/apps/replicaset/strategy.go.
// Status is reset on create and kept on update (the store does both for kinds with a status).
import type { ReplicaSet } from '../../../../api/types.js';
import { child, num, obj, validateImmutableSelector, validateNonnegativeField, type Obj } from '../../../../machinery/validation/common.js';
import type { FieldError } from '../../../../machinery/validation/field-errors.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { cloneJson } from '../../../meta.js';
import { selectorImmutable, templateWarnings, validateRequiredSelector, validateTemplateForReplicaSet } from '../selector-and-template.js';
import { greaterThan, statusCommon } from '../status-counts.js';

export function validateReplicaSetSpec(spec: Obj, path = 'spec'): FieldError[] {
  const errs = validateNonnegativeField(num(spec.replicas), child(path, 'replicas'));
  errs.push(...validateNonnegativeField(num(spec.minReadySeconds), child(path, 'minReadySeconds')));
  errs.push(...validateRequiredSelector(spec, path, 'deployment'));
  errs.push(...validateTemplateForReplicaSet(spec, path, 'ReplicaSet'));
  return errs;
}

export function validateReplicaSetStatus(rs: Obj): FieldError[] {
  const status = obj(rs.status);
  const errs = statusCommon(status, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']);
  const msg = 'cannot be greater than status.replicas';
  errs.push(...greaterThan(status, 'fullyLabeledReplicas', 'replicas', msg), ...greaterThan(status, 'readyReplicas', 'replicas', msg), ...greaterThan(status, 'availableReplicas', 'replicas', msg));
  errs.push(...greaterThan(status, 'availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'));
  return errs;
}

export const replicaSetStrategy: ResourceStrategy<ReplicaSet> = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (o) => templateWarnings(o),
  prepareForUpdate(rs, old) {
    rs.status = cloneJson(old.status);
  },
  validate: (rs) => validateReplicaSetSpec(obj(rs.spec)),
  validateUpdate(rs, old, ctx) {
    const errs = validateReplicaSetSpec(obj(rs.spec));
    if (selectorImmutable(ctx)) errs.push(...validateImmutableSelector(obj(rs.spec).selector, obj(old.spec).selector, 'spec.selector'));
    return errs;
  },
  prepareForStatusUpdate(rs, old) {
    rs.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (rs) => validateReplicaSetStatus(rs),
};
