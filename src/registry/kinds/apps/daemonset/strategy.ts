// apps/v1 DaemonSet: pkg/apis/apps/validation and pkg/registry/apps/daemonset/strategy.go.
// DaemonSets keep their template generation in the deprecated.daemonset.template.generation
// annotation, as apps/v1 does.
import { DEPRECATED_TEMPLATE_GENERATION } from '../../../../api/apps/conversion.js';
import { annotationsOf } from '../../../../api/meta/object.js';
import type { DaemonSet } from '../../../../api/types.js';
import {
  child,
  isObj,
  labelSelectorAsSelector,
  num,
  obj,
  optNum,
  optObj,
  semanticEqual,
  selectorMatches,
  str,
  stringMap,
  validateImmutableSelector,
  validateLabelSelector,
  validateNonnegativeField,
  invalidStringMap,
  type Obj,
} from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { goIntOrString, goLabelSelector, goPointer, goString, goStruct, notSupportedRaw, rawError } from '../../../../machinery/validation/go-syntax.js';
import type { ResourceStrategy } from '../../../strategy.js';
import { cloneJson } from '../../../meta.js';
import { validatePodTemplateSpec } from '../../../podspec/index.js';
import { selectorImmutable, templateWarnings } from '../selector-and-template.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../int-or-percent.js';
import { collisionCountErrors, statusCommon } from '../status-counts.js';

/** The template generation apps/v1 keeps in an annotation (0 when absent or not an integer). */
function templateGeneration(ds: Obj): number {
  const v = annotationsOf(ds)[DEPRECATED_TEMPLATE_GENERATION];
  return typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

function setTemplateGeneration(ds: DaemonSet, value: number): void {
  (ds.metadata ??= {}).annotations = { ...annotationsOf(ds), [DEPRECATED_TEMPLATE_GENERATION]: String(value) };
}

function validateDaemonSetUpdateStrategy(strategy: unknown, path: string): FieldError[] {
  const s = obj(strategy);
  const type = str(s.type);
  if (type === 'OnDelete') return [];
  if (type === 'RollingUpdate') {
    const ru = optObj(s.rollingUpdate);
    if (!ru) return [fieldError.required(child(path, 'rollingUpdate'))];
    const p = child(path, 'rollingUpdate');
    const errs = [...validatePositiveIntOrPercent(ru.maxUnavailable, child(p, 'maxUnavailable')), ...validatePositiveIntOrPercent(ru.maxSurge, child(p, 'maxSurge'))];
    errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, child(p, 'maxUnavailable')), ...isNotMoreThan100Percent(ru.maxSurge, child(p, 'maxSurge')));
    const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
    const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
    if (hasUnavailable && hasSurge) errs.push(rawError('FieldValueInvalid', child(p, 'maxSurge'), goIntOrString(ru.maxSurge), 'may not be set when maxUnavailable is non-zero'));
    else if (!hasUnavailable && !hasSurge) errs.push(fieldError.required(child(p, 'maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
    return errs;
  }
  const text = goStruct('apps.DaemonSetUpdateStrategy', [['Type', goString(type)], ['RollingUpdate', goPointer('apps.RollingUpdateDaemonSet', s.rollingUpdate)]]);
  return [notSupportedRaw(path, text, ['RollingUpdate', 'OnDelete'])];
}

export function validateDaemonSetSpec(ds: Obj, path = 'spec'): FieldError[] {
  const spec = obj(ds.spec);
  const errs = validateLabelSelector(spec.selector, child(path, 'selector'));
  const template = obj(spec.template);
  const sel = labelSelectorAsSelector(spec.selector);
  const labels = stringMap(obj(template.metadata).labels);
  if (sel && !selectorMatches(sel, labels)) errs.push(invalidStringMap(child(path, 'template', 'metadata', 'labels'), obj(template.metadata).labels, '`selector` does not match template `labels`'));
  if (isObj(spec.selector) && Object.keys(obj(spec.selector.matchLabels)).length + (Array.isArray(spec.selector.matchExpressions) ? spec.selector.matchExpressions.length : 0) === 0) {
    errs.push(rawError('FieldValueInvalid', child(path, 'selector'), goLabelSelector(spec.selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, child(path, 'template')));
  const tSpec = obj(template.spec);
  if (str(tSpec.restartPolicy) !== 'Always') errs.push(fieldError.notSupported(child(path, 'template', 'spec', 'restartPolicy'), str(tSpec.restartPolicy), ['Always']));
  if (optNum(tSpec.activeDeadlineSeconds) !== undefined) errs.push(fieldError.forbidden(child(path, 'template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errs.push(...validateNonnegativeField(num(spec.minReadySeconds), child(path, 'minReadySeconds')));
  errs.push(...validateNonnegativeField(templateGeneration(ds), child(path, 'templateGeneration')));
  errs.push(...validateDaemonSetUpdateStrategy(spec.updateStrategy, child(path, 'updateStrategy')));
  const rhl = optNum(spec.revisionHistoryLimit);
  if (rhl !== undefined) errs.push(...validateNonnegativeField(rhl, child(path, 'revisionHistoryLimit')));
  return errs;
}

export function validateDaemonSetStatus(ds: Obj): FieldError[] {
  return statusCommon(obj(ds.status), [
    'currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled',
    'numberAvailable', 'numberUnavailable',
  ]);
}

export const daemonSetStrategy: ResourceStrategy<DaemonSet> = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (o) => templateWarnings(o),
  prepareForCreate(ds) {
    if (templateGeneration(ds) < 1) setTemplateGeneration(ds, 1);
  },
  prepareForUpdate(ds, old) {
    ds.status = cloneJson(old.status);
    // The template generation is the server's: kept, and incremented when the template changes.
    const oldGeneration = templateGeneration(old);
    const changed = !semanticEqual(ds.spec?.template, old.spec?.template);
    setTemplateGeneration(ds, changed ? oldGeneration + 1 : oldGeneration);
  },
  validate: (ds) => validateDaemonSetSpec(ds),
  validateUpdate(ds, old, ctx) {
    const errs = validateDaemonSetSpec(ds);
    if (templateGeneration(ds) < templateGeneration(old)) errs.push(fieldError.invalid('spec.templateGeneration', templateGeneration(ds), 'must not be decremented'));
    if (selectorImmutable(ctx)) errs.push(...validateImmutableSelector(obj(ds.spec).selector, obj(old.spec).selector, 'spec.selector'));
    return errs;
  },
  prepareForStatusUpdate(ds, old) {
    ds.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (ds, old) => [...validateDaemonSetStatus(ds), ...collisionCountErrors(ds, old)],
};
