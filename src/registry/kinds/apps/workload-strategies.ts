// apps/v1 Deployment, ReplicaSet, DaemonSet, StatefulSet: pkg/apis/apps/validation and
// pkg/registry/apps/*/strategy.go. Status is reset on create and kept on update (the store does
// both for kinds with a status); generations are the store's, except a Deployment's annotation
// changes, which bump it too (annotations are copied to ReplicaSets). DaemonSets keep their
// template generation in the deprecated.daemonset.template.generation annotation, as apps/v1 does.
import { DEPRECATED_TEMPLATE_GENERATION } from '../../../api/apps/conversion.js';
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
  validateImmutableSelector,
  validateLabelSelector,
  validateLabels,
  validateAnnotations,
  validateNonnegativeField,
  invalidStringMap,
  type Obj,
} from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goIntOrString, goLabelSelector, goPointer, goString, goStruct, notSupportedRaw, rawError } from '../../../machinery/validation/go-syntax.js';
import { isValidPercent } from '../../../machinery/validation/names.js';
import type { ResourceStrategy, StrategyContext } from '../../strategy.js';
import { validatePodSpecificAnnotations, validatePodTemplateSpec } from '../../podspec/index.js';
import { podWarnings } from '../pod-template-warnings.js';
import { cloneJson } from '../../meta.js';

/** Warnings of an object with a pod template at spec.template. */
export const templateWarnings = (o: Obj): string[] => podWarnings(obj(obj(o.spec).template), 'spec.template');

// ---- shared pieces ----

/** The selector checks every apps/v1 kind shares; returns the compiled selector when it converts. */
function validateRequiredSelector(spec: Obj, path: string, kindWord: string): FieldError[] {
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
function validateTemplateForReplicaSet(spec: Obj, path: string, owner: string): FieldError[] {
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

/** ValidatePositiveIntOrPercent. */
function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((msg) => rawError('FieldValueInvalid', path, goIntOrString(v), msg));
  return validateNonnegativeField(num(v), path);
}

/** A percent's number (undefined when not a valid percent). */
function percentValue(v: unknown): number | undefined {
  return typeof v === 'string' && isValidPercent(v).length === 0 ? Number(v.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue: the percent's number, else IntValue() (a non-numeric string is 0). */
function intOrPercentValue(v: unknown): number {
  const p = percentValue(v);
  if (p !== undefined) return p;
  if (typeof v === 'number') return v;
  return typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

function isNotMoreThan100Percent(v: unknown, path: string): FieldError[] {
  const p = percentValue(v);
  return p !== undefined && p > 100 ? [rawError('FieldValueInvalid', path, goIntOrString(v), 'must not be greater than 100%')] : [];
}

/** Selector immutability: only through apps/v1 (the beta versions allowed changing it). */
function selectorImmutable(ctx: StrategyContext | undefined): boolean {
  const gv = ctx?.requestGroupVersion;
  return gv === undefined || gv === 'apps/v1';
}

const statusCommon = (status: Obj, fields: string[]): FieldError[] => fields.flatMap((f) => validateNonnegativeField(num(status[f]), child('status', f)));

function collisionCountErrors(obj1: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const cc = optNum(obj(obj1.status).collisionCount);
  const oldCC = optNum(obj(old.status).collisionCount);
  if (cc !== undefined) errs.push(...validateNonnegativeField(cc, 'status.collisionCount'));
  if ((cc === undefined && oldCC !== undefined) || (cc !== undefined && oldCC !== undefined && cc < oldCC)) {
    errs.push(fieldError.invalid('status.collisionCount', cc ?? 0, 'cannot be decremented'));
  }
  return errs;
}

function greaterThan(status: Obj, field: string, than: string, msg: string): FieldError[] {
  return num(status[field]) > num(status[than]) ? [fieldError.invalid(child('status', field), num(status[field]), msg)] : [];
}

// ---- Deployment ----

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

export const deploymentStrategy: ResourceStrategy = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (o) => templateWarnings(o),
  prepareForUpdate(d, old) {
    d.status = cloneJson(old.status);
    // Annotation changes bump the generation too (they are copied to the ReplicaSets).
    const meta = obj(d.metadata);
    const oldMeta = obj(old.metadata);
    if (!semanticEqual(meta.annotations, oldMeta.annotations)) {
      meta.generation = num(oldMeta.generation) + 1;
      d.metadata = meta;
    }
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

// ---- ReplicaSet ----

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

export const replicaSetStrategy: ResourceStrategy = {
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

// ---- DaemonSet ----

function templateGeneration(ds: Obj): number {
  const v = stringMap(obj(ds.metadata).annotations)[DEPRECATED_TEMPLATE_GENERATION];
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

function setTemplateGeneration(ds: Obj, value: number): void {
  const meta = obj(ds.metadata);
  meta.annotations = { ...obj(meta.annotations), [DEPRECATED_TEMPLATE_GENERATION]: String(value) };
  ds.metadata = meta;
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

export const daemonSetStrategy: ResourceStrategy = {
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
    const changed = !semanticEqual(obj(ds.spec).template, obj(old.spec).template);
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

// ---- StatefulSet ----

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

export const statefulSetStrategy: ResourceStrategy = {
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

// ---- Scale (autoscaling/v1, the scale subresource) ----

/** ValidateScale: spec.replicas must not be negative (the Status names kind Scale, group autoscaling). */
export function validateScale(scale: Obj): FieldError[] {
  return validateNonnegativeField(num(obj(scale.spec).replicas), 'spec.replicas');
}

