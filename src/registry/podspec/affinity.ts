// Scheduling constraints: node and pod (anti-)affinity, tolerations (and the taint effects they
// name), topology spread constraints.
import type { Affinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PodAffinity, PodAffinityTerm, PodAntiAffinity, Toleration, TopologySpreadConstraint } from '../../api/types.js';
import { child, index, num, obj, optNum, optStr, str, strs, validateLabelName, validateLabelSelector } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { isValidLabelValue, nameIsDNSSubdomain, validateNamespaceName } from '../../machinery/validation/names.js';
import { optStruct, struct, structs } from '../../machinery/validation/structs.js';
import type { PodValidationOptions } from './options.js';

function validateNodeSelectorRequirement(rq: NodeSelectorRequirement, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(rq.operator);
  const values = strs(rq.values);
  switch (op) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldError.required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldError.forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldError.required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldError.invalid(child(path, 'operator'), op, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(rq.key), child(path, 'key')));
  if (!allowInvalidValues) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
    });
  }
  return errs;
}

function validateNodeFieldSelectorRequirement(req: NodeSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(req.operator);
  const values = strs(req.values);
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1) errs.push(fieldError.required(child(path, 'values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(fieldError.invalid(child(path, 'operator'), op, 'not a valid selector operator'));
  if (str(req.key) !== 'metadata.name') errs.push(fieldError.invalid(child(path, 'key'), str(req.key), 'not a valid field selector key'));
  else values.forEach((v, i) => {
    for (const msg of nameIsDNSSubdomain(v, false)) errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
  });
  return errs;
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  structs(term.matchExpressions).forEach((r, j) => errs.push(...validateNodeSelectorRequirement(r, allowInvalidValues, index(child(path, 'matchExpressions'), j))));
  structs(term.matchFields).forEach((r, j) => errs.push(...validateNodeFieldSelectorRequirement(r, index(child(path, 'matchFields'), j))));
  return errs;
}

/** ValidateNodeSelector: at least one term, each term's requirements (a pod's required node affinity, a PV's node affinity). */
export function validateNodeSelector(selector: NodeSelector, allowInvalidValues: boolean, path: string): FieldError[] {
  const terms = structs(selector.nodeSelectorTerms);
  if (terms.length === 0) return [fieldError.required(child(path, 'nodeSelectorTerms'), 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, allowInvalidValues, index(child(path, 'nodeSelectorTerms'), i)));
}

function validatePodAffinityTerm(term: PodAffinityTerm, allowInvalid: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector, child(path, 'labelSelector'), allowInvalid));
  errs.push(...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector'), allowInvalid));
  for (const ns of strs(term.namespaces)) for (const msg of validateNamespaceName(ns, false)) errs.push(fieldError.invalid(child(path, 'namespace'), ns, msg));
  const selector = optStruct(term.labelSelector);
  for (const which of ['matchLabelKeys', 'mismatchLabelKeys'] as const) {
    const keys = strs(term[which]);
    if (keys.length === 0) continue;
    if (!selector) errs.push(fieldError.forbidden(child(path, which), 'must not be specified when labelSelector is not set'));
    else keys.forEach((k, i) => errs.push(...validateLabelName(k, index(child(path, which), i))));
  }
  const matchKeys = strs(term.matchLabelKeys);
  const mismatch = new Set(strs(term.mismatchLabelKeys));
  matchKeys.forEach((k, i) => {
    if (mismatch.has(k)) errs.push(fieldError.invalid(index(child(path, 'matchLabelKeys'), i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  const topologyKey = str(term.topologyKey);
  if (topologyKey === '') errs.push(fieldError.required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, child(path, 'topologyKey')));
  return errs;
}

function validatePodAffinityKind(a: PodAffinity | PodAntiAffinity, allowInvalid: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  structs(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
    errs.push(...validatePodAffinityTerm(t, allowInvalid, index(child(path, 'requiredDuringSchedulingIgnoredDuringExecution'), i))),
  );
  structs(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((w, j) => {
    const p = index(child(path, 'preferredDuringSchedulingIgnoredDuringExecution'), j);
    const weight = num(w.weight);
    if (weight <= 0 || weight > 100) errs.push(fieldError.invalid(child(p, 'weight'), weight, 'must be in the range 1-100'));
    errs.push(...validatePodAffinityTerm(struct(w.podAffinityTerm), allowInvalid, child(p, 'podAffinityTerm')));
  });
  return errs;
}

export function validateAffinity(affinity: Affinity | null | undefined, opts: PodValidationOptions, path: string): FieldError[] {
  const a = optStruct(affinity);
  if (!a) return [];
  const errs: FieldError[] = [];
  const na = optStruct(a.nodeAffinity);
  if (na) {
    const np = child(path, 'nodeAffinity');
    const required = optStruct(na.requiredDuringSchedulingIgnoredDuringExecution);
    if (required) errs.push(...validateNodeSelector(required, false, child(np, 'requiredDuringSchedulingIgnoredDuringExecution')));
    structs(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const p = index(child(np, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
      const weight = num(t.weight);
      if (weight <= 0 || weight > 100) errs.push(fieldError.invalid(child(p, 'weight'), weight, 'must be in the range 1-100'));
      errs.push(...validateNodeSelectorTerm(struct(t.preference), true, child(p, 'preference')));
    });
  }
  const pa = optStruct(a.podAffinity);
  if (pa) errs.push(...validatePodAffinityKind(pa, opts.allowInvalidLabelValueInSelector === true, child(path, 'podAffinity')));
  const paa = optStruct(a.podAntiAffinity);
  if (paa) errs.push(...validatePodAffinityKind(paa, opts.allowInvalidLabelValueInSelector === true, child(path, 'podAntiAffinity')));
  return errs;
}

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaintEffect. */
export function validateTaintEffect(effect: string, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && effect === '') return [fieldError.required(path)];
  return taintEffects.includes(effect) ? [] : [fieldError.notSupported(path, effect, taintEffects)];
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: readonly Toleration[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  structs(tolerations).forEach((t, i) => {
    const p = index(path, i);
    const k = str(t.key);
    const op = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (k !== '') errs.push(...validateLabelName(k, child(p, 'key')));
    if (k === '' && op !== 'Exists') errs.push(fieldError.invalid(child(p, 'operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(child(p, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op === 'Equal' || op === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(fieldError.invalid(child(p, 'operator'), value, msgs.join(';')));
    } else if (op === 'Exists') {
      if (value !== '') errs.push(fieldError.invalid(child(p, 'operator'), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(fieldError.notSupported(child(p, 'operator'), op, ['Equal', 'Exists']));
    }
    if (effect !== '') errs.push(...validateTaintEffect(effect, true, child(p, 'effect')));
  });
  return errs;
}

export function validateTopologySpreadConstraints(constraints: readonly TopologySpreadConstraint[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const all = structs(constraints);
  all.forEach((c, i) => {
    const p = index(path, i);
    const maxSkew = num(c.maxSkew);
    if (maxSkew <= 0) errs.push(fieldError.invalid(child(p, 'maxSkew'), maxSkew, 'must be greater than zero'));
    const topologyKey = str(c.topologyKey);
    if (topologyKey === '') errs.push(fieldError.required(child(p, 'topologyKey'), 'can not be empty'));
    const action = str(c.whenUnsatisfiable);
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') errs.push(fieldError.notSupported(child(p, 'whenUnsatisfiable'), action, ['DoNotSchedule', 'ScheduleAnyway']));
    if (all.slice(i + 1).some((o) => str(o.topologyKey) === topologyKey && str(o.whenUnsatisfiable) === action)) {
      errs.push(fieldError.duplicate(child(p, '{topologyKey, whenUnsatisfiable}'), `{${topologyKey}, ${action}}`));
    }
    const minDomains = optNum(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(fieldError.invalid(child(p, 'minDomains'), minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(fieldError.invalid(child(p, 'minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = optStr(c[policy]);
      if (v !== undefined && v !== 'Honor' && v !== 'Ignore') errs.push(fieldError.notSupported(child(p, policy), v, ['Honor', 'Ignore']));
    }
    const matchLabelKeys = strs(c.matchLabelKeys);
    if (matchLabelKeys.length > 0) {
      const selector = optStruct(c.labelSelector);
      const selectorKeys = new Set<string>();
      if (selector) {
        for (const k of Object.keys(obj(selector.matchLabels))) selectorKeys.add(k);
        for (const e of structs(selector.matchExpressions)) selectorKeys.add(str(e.key));
      } else errs.push(fieldError.forbidden(child(p, 'matchLabelKeys'), 'must not be specified when labelSelector is not set'));
      matchLabelKeys.forEach((k, j) => {
        errs.push(...validateLabelName(k, index(child(p, 'matchLabelKeys'), j)));
        if (selectorKeys.has(k)) errs.push(fieldError.invalid(index(child(p, 'matchLabelKeys'), j), k, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    errs.push(...validateLabelSelector(c.labelSelector, child(p, 'labelSelector')));
  });
  return errs;
}
