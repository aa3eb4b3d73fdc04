// apps/v1 Deployment: pkg/apis/apps/validation and pkg/registry/apps/deployment/strategy.go.
// Status is reset on create and kept on update (the store does both for kinds with a status);
// generations are the store's, except annotation changes, which bump it too (annotations are
// copied to ReplicaSets).
import { metadataOf } from '../../../../api/meta/object.js';
import type { Deployment } from '../../../../api/types.js';
import {
  child,
  num,
  obj,
  optNum,
  optObj,
  semanticEqual,
  str,
  validateImmutableSelector,
  validateNonnegativeField,
  type Obj,
} from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { goIntOrString, goPointer, goString, goStruct, notSupportedRaw, rawError } from '../../../../machinery/validation/go-syntax.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { cloneJson } from '../../../meta.js';
import { selectorImmutable, templateWarnings, validateRequiredSelector, validateTemplateForReplicaSet } from '../selector-and-template.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../int-or-percent.js';
import { collisionCountErrors, greaterThan, statusCommon } from '../status-counts.js';

function validateDeploymentStrategy(strategy: unknown, path: string): FieldError[] {
  const s = obj(strategy);
  const type = str(s.type);
  const ru = optObj(s.rollingUpdate);
  if (type === 'Recreate') {
    return ru ? [fieldError.forbidden(child(path, 'rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type === 'RollingUpdate') {
    if (!ru) return [fieldError.required(child(path, 'rollingUpdate'), 'this should be defaulted and never be nil')];
    const p = child(path, 'rollingUpdate');
    const errs = [...validatePositiveIntOrPercent(ru.maxUnavailable, child(p, 'maxUnavailable')), ...validatePositiveIntOrPercent(ru.maxSurge, child(p, 'maxSurge'))];
    if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
      errs.push(rawError('FieldValueInvalid', child(p, 'maxUnavailable'), goIntOrString(ru.maxUnavailable ?? 0), 'may not be 0 when `maxSurge` is 0'));
    }
    errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, child(p, 'maxUnavailable')));
    return errs;
  }
  const text = goStruct('apps.DeploymentStrategy', [['Type', goString(type)], ['RollingUpdate', goPointer('apps.RollingUpdateDeployment', s.rollingUpdate)]]);
  return [notSupportedRaw(path, text, ['Recreate', 'RollingUpdate'])];
}

export function validateDeploymentSpec(spec: Obj, path = 'spec'): FieldError[] {
  const errs = validateNonnegativeField(num(spec.replicas), child(path, 'replicas'));
  errs.push(...validateRequiredSelector(spec, path, 'deployment'));
  errs.push(...validateTemplateForReplicaSet(spec, path, 'ReplicaSet'));
  errs.push(...validateDeploymentStrategy(spec.strategy, child(path, 'strategy')));
  errs.push(...validateNonnegativeField(num(spec.minReadySeconds), child(path, 'minReadySeconds')));
  const rhl = optNum(spec.revisionHistoryLimit);
  if (rhl !== undefined) errs.push(...validateNonnegativeField(rhl, child(path, 'revisionHistoryLimit')));
  const pds = optNum(spec.progressDeadlineSeconds);
  if (pds !== undefined) {
    errs.push(...validateNonnegativeField(pds, child(path, 'progressDeadlineSeconds')));
    if (pds <= num(spec.minReadySeconds)) errs.push(fieldError.invalid(child(path, 'progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

export function validateDeploymentStatus(d: Obj): FieldError[] {
  const status = obj(d.status);
  const errs = statusCommon(status, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas']);
  const msg = 'cannot be greater than status.replicas';
  errs.push(...greaterThan(status, 'updatedReplicas', 'replicas', msg), ...greaterThan(status, 'readyReplicas', 'replicas', msg), ...greaterThan(status, 'availableReplicas', 'replicas', msg));
  errs.push(...greaterThan(status, 'availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'));
  return errs;
}

export const deploymentStrategy: ResourceStrategy<Deployment> = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (o) => templateWarnings(o),
  prepareForUpdate(d, old) {
    d.status = cloneJson(old.status);
    // Annotation changes bump the generation too (they are copied to the ReplicaSets).
    const oldMeta = metadataOf(old);
    if (!semanticEqual(metadataOf(d).annotations, oldMeta.annotations)) (d.metadata ??= {}).generation = (oldMeta.generation ?? 0) + 1;
  },
  validate: (d) => validateDeploymentSpec(obj(d.spec)),
  validateUpdate(d, old, ctx) {
    const errs = validateDeploymentSpec(obj(d.spec));
    if (selectorImmutable(ctx)) errs.push(...validateImmutableSelector(obj(d.spec).selector, obj(old.spec).selector, 'spec.selector'));
    return errs;
  },
  prepareForStatusUpdate(d, old) {
    d.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (d, old) => [...validateDeploymentStatus(d), ...collisionCountErrors(d, old)],
};
