// The selector and pod template rules the apps/v1 workloads share (pkg/apis/apps/validation):
// a required, non-empty selector; a template whose labels it matches, that restarts Always and has
// no active deadline; the selector immutable through apps/v1 only; the template's warnings.
import {
  child,
  isObj,
  labelSelectorAsSelector,
  obj,
  optNum,
  selectorEmpty,
  selectorMatches,
  str,
  stringMap,
  validateLabelSelector,
  invalidStringMap,
  type Obj,
} from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goLabelSelector, rawError } from '../../../machinery/validation/go-syntax.js';
import type { StrategyContext } from '../../strategy.js';
import { validatePodTemplateSpec } from '../../podspec/index.js';
import { podWarnings } from '../pod-template-warnings.js';

/** Warnings of an object with a pod template at spec.template. */
export const templateWarnings = (o: Obj): string[] => podWarnings(obj(obj(o.spec).template), 'spec.template');

/** The selector checks every apps/v1 kind shares; returns the compiled selector when it converts. */
export function validateRequiredSelector(spec: Obj, path: string, kindWord: string): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec.selector;
  if (!isObj(sel)) errs.push(fieldError.required(child(path, 'selector')));
  else {
    errs.push(...validateLabelSelector(sel, child(path, 'selector')));
    if (Object.keys(obj(sel.matchLabels)).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0) === 0) {
      errs.push(rawError('FieldValueInvalid', child(path, 'selector'), goLabelSelector(sel), `empty selector is invalid for ${kindWord}`));
    }
  }
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet (also a Deployment's): labels match, pod template valid, restartPolicy Always. */
export function validateTemplateForReplicaSet(spec: Obj, path: string, owner: string): FieldError[] {
  const errs: FieldError[] = [];
  const template = obj(spec.template);
  const tPath = child(path, 'template');
  const sel = labelSelectorAsSelector(spec.selector);
  if (!sel) {
    errs.push(rawError('FieldValueInvalid', child(path, 'selector'), goLabelSelector(spec.selector), 'invalid label selector'));
    return errs;
  }
  const labels = stringMap(obj(template.metadata).labels);
  if (!selectorEmpty(sel) && !selectorMatches(sel, labels)) errs.push(invalidStringMap(child(tPath, 'metadata', 'labels'), obj(template.metadata).labels, '`selector` does not match template `labels`'));
  errs.push(...validatePodTemplateSpec(template, tPath));
  const tSpec = obj(template.spec);
  if (str(tSpec.restartPolicy) !== 'Always') errs.push(fieldError.notSupported(child(tPath, 'spec', 'restartPolicy'), str(tSpec.restartPolicy), ['Always']));
  if (optNum(tSpec.activeDeadlineSeconds) !== undefined) errs.push(fieldError.forbidden(child(tPath, 'spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${owner} is not Supported`));
  return errs;
}

/** Selector immutability: only through apps/v1 (the beta versions allowed changing it). */
export function selectorImmutable(ctx: StrategyContext | undefined): boolean {
  const gv = ctx?.requestGroupVersion;
  return gv === undefined || gv === 'apps/v1';
}
