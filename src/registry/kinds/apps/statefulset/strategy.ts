// apps/v1 StatefulSet: pkg/apis/apps/validation and pkg/registry/apps/statefulset/strategy.go.
// Only some spec fields may change; the pod spec is left to the pods' validation.
import type { StatefulSet } from '../../../../api/types.js';
import {
  child,
  isObj,
  labelSelectorAsSelector,
  num,
  obj,
  optNum,
  optObj,
  semanticEqual,
  selectorEmpty,
  selectorMatches,
  str,
  stringMap,
  validateLabels,
  validateAnnotations,
  validateNonnegativeField,
  invalidStringMap,
  type Obj,
} from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { goIntOrString, goLabelSelector, goPointer, goString, goStruct, rawError } from '../../../../machinery/validation/go-syntax.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { cloneJson } from '../../../meta.js';
import { validatePodSpecificAnnotations } from '../../../podspec/index.js';
import { templateWarnings, validateRequiredSelector } from '../selector-and-template.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../int-or-percent.js';
import { collisionCountErrors, greaterThan, statusCommon } from '../status-counts.js';

function validateRetentionPolicy(policy: unknown, path: string): FieldError[] {
  if (!isObj(policy)) return [];
  const errs: FieldError[] = [];
  for (const f of ['whenDeleted', 'whenScaled']) {
    const v = str(policy[f]);
    if (v !== 'Retain' && v !== 'Delete') errs.push(fieldError.notSupported(child(path, f), v, ['Retain', 'Delete']));
  }
  return errs;
}

export function validateStatefulSetSpec(spec: Obj, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const pmp = str(spec.podManagementPolicy);
  if (pmp === '') errs.push(fieldError.required(child(path, 'podManagementPolicy')));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(fieldError.invalid(child(path, 'podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"));
  const us = obj(spec.updateStrategy);
  const usType = str(us.type);
  const ru = optObj(us.rollingUpdate);
  const usPath = child(path, 'updateStrategy');
  const goRU = () =>
    goStruct('apps.RollingUpdateStatefulSetStrategy', [
      ['Partition', String(num(ru?.partition))],
      ['MaxUnavailable', goPointer('intstr.IntOrString', ru?.maxUnavailable)],
    ]);
  if (usType === '') errs.push(fieldError.required(usPath));
  else if (usType === 'OnDelete') {
    if (ru) errs.push(rawError('FieldValueInvalid', child(usPath, 'rollingUpdate'), goRU(), "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (usType === 'RollingUpdate') {
    if (ru) {
      const rp = child(usPath, 'rollingUpdate');
      errs.push(...validateNonnegativeField(num(ru.partition), child(rp, 'partition')));
      if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
        errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, child(rp, 'maxUnavailable')));
        if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(rawError('FieldValueInvalid', child(rp, 'maxUnavailable'), goIntOrString(ru.maxUnavailable), 'cannot be 0'));
        errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, child(rp, 'maxUnavailable')));
      }
    }
  } else {
    errs.push(rawError('FieldValueInvalid', usPath, goStruct('apps.StatefulSetUpdateStrategy', [['Type', goString(usType)], ['RollingUpdate', goPointer('apps.RollingUpdateStatefulSetStrategy', us.rollingUpdate)]]), "must be 'RollingUpdate' or 'OnDelete'"));
  }
  errs.push(...validateRetentionPolicy(spec.persistentVolumeClaimRetentionPolicy, child(path, 'persistentVolumeClaimRetentionPolicy')));
  errs.push(...validateNonnegativeField(num(spec.replicas), child(path, 'replicas')));
  errs.push(...validateNonnegativeField(num(spec.minReadySeconds), child(path, 'minReadySeconds')));
  if (isObj(spec.ordinals)) errs.push(...validateNonnegativeField(num(spec.ordinals.start), child(path, 'ordinals.start')));
  errs.push(...validateRequiredSelector(spec, path, 'statefulset'));
  const sel = labelSelectorAsSelector(spec.selector);
  const template = obj(spec.template);
  const tPath = child(path, 'template');
  if (!sel) errs.push(rawError('FieldValueInvalid', child(path, 'selector'), goLabelSelector(spec.selector), ''));
  else {
    // StatefulSets validate only their template's metadata (Kubernetes leaves the pod spec to the pods).
    const labels = stringMap(obj(template.metadata).labels);
    if (!selectorEmpty(sel) && !selectorMatches(sel, labels)) errs.push(invalidStringMap(child(tPath, 'metadata', 'labels'), obj(template.metadata).labels, '`selector` does not match template `labels`'));
    errs.push(...validateLabels(obj(template.metadata).labels, child(tPath, 'labels')));
    errs.push(...validateAnnotations(obj(template.metadata).annotations, child(tPath, 'annotations')));
    errs.push(...validatePodSpecificAnnotations(obj(template.metadata).annotations, obj(template.spec), child(tPath, 'annotations'), {}));
  }
  const tSpec = obj(template.spec);
  if (str(tSpec.restartPolicy) !== 'Always') errs.push(fieldError.notSupported(child(tPath, 'spec', 'restartPolicy'), str(tSpec.restartPolicy), ['Always']));
  if (optNum(tSpec.activeDeadlineSeconds) !== undefined) errs.push(fieldError.forbidden(child(tPath, 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errs;
}

const statefulSetMutable = ['replicas', 'ordinals', 'template', 'updateStrategy', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy'];

export function validateStatefulSetUpdate(sts: Obj, old: Obj): FieldError[] {
  const errs = validateStatefulSetSpec(obj(sts.spec));
  const a = { ...obj(sts.spec) };
  const b = { ...obj(old.spec) };
  for (const k of statefulSetMutable) {
    delete a[k];
    delete b[k];
  }
  if (!semanticEqual(a, b)) {
    errs.push(
      fieldError.forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

export function validateStatefulSetStatus(sts: Obj): FieldError[] {
  const status = obj(sts.status);
  const errs = statusCommon(status, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']);
  const og = optNum(status.observedGeneration);
  if (og !== undefined) errs.push(...validateNonnegativeField(og, 'status.observedGeneration'));
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']) errs.push(...greaterThan(status, f, 'replicas', msg));
  errs.push(...greaterThan(status, 'availableReplicas', 'readyReplicas', 'cannot be greater than status.readyReplicas'));
  return errs;
}

export const statefulSetStrategy: ResourceStrategy<StatefulSet> = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (o) => templateWarnings(o),
  prepareForUpdate(sts, old) {
    sts.status = cloneJson(old.status);
  },
  validate: (sts) => validateStatefulSetSpec(obj(sts.spec)),
  validateUpdate: (sts, old) => validateStatefulSetUpdate(sts, old),
  prepareForStatusUpdate(sts, old) {
    sts.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (sts, old) => [...validateStatefulSetStatus(sts), ...collisionCountErrors(sts, old)],
};
