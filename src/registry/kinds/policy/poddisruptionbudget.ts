// policy PodDisruptionBudget: pkg/registry/policy/poddisruptionbudget/strategy.go with
// pkg/apis/policy/validation. Status is reset on create and kept on spec writes, the spec kept on
// status writes (the store and prepareForStatusUpdate); a spec change bumps the generation (the
// eviction subresource refuses to spend a budget the disruption controller has not yet observed).
import { UNHEALTHY_POD_EVICTION_POLICIES } from '../../../api/policy/v1.js';
import type { PodDisruptionBudget } from '../../../api/types.js';
import { child, isObj, num, obj, optObj, validateLabelSelector, validateNonnegativeField } from '../../../machinery/validation/common.js';
import { validateConditions } from '../../../machinery/validation/conditions.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goPointer, goStruct, rawError } from '../../../machinery/validation/go-syntax.js';
import { isValidLabelValue } from '../../../machinery/validation/names.js';
import type { KindModule } from '../../kind-module.js';
import { cloneJson } from '../../meta.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../apps/int-or-percent.js';

const SUPPORTED_POLICIES: readonly string[] = [...UNHEALTHY_POD_EVICTION_POLICIES].sort();
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** The spec as %#v prints it in the "cannot be both set" error (its pointers as addresses). */
function goSpec(spec: Record<string, unknown>): string {
  return goStruct('policy.PodDisruptionBudgetSpec', [
    ['MinAvailable', goPointer('intstr.IntOrString', spec.minAvailable)],
    ['Selector', goPointer('v1.LabelSelector', spec.selector)],
    ['MaxUnavailable', goPointer('intstr.IntOrString', spec.maxUnavailable)],
    ['UnhealthyPodEvictionPolicy', goPointer('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy)],
  ]);
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudgetSpec(pdb: { spec?: unknown }, allowInvalidLabelValueInSelector = false): FieldError[] {
  const spec = obj(pdb.spec);
  const errs: FieldError[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) errs.push(rawError('FieldValueInvalid', 'spec', goSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  for (const key of ['minAvailable', 'maxUnavailable']) {
    if (!isSet(spec[key])) continue;
    const path = child('spec', key);
    errs.push(...validatePositiveIntOrPercent(spec[key], path), ...isNotMoreThan100Percent(spec[key], path));
  }
  errs.push(...validateLabelSelector(optObj(spec.selector), 'spec.selector', allowInvalidLabelValueInSelector));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (typeof policy === 'string' && !SUPPORTED_POLICIES.includes(policy)) errs.push(fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, SUPPORTED_POLICIES));
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1). */
export function validatePodDisruptionBudgetStatus(pdb: { status?: unknown }): FieldError[] {
  const status = obj(pdb.status);
  const errs = validateConditions(status.conditions, 'status.conditions');
  for (const key of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) errs.push(...validateNonnegativeField(num(status[key]), child('status', key)));
  return errs;
}

/** hasInvalidLabelValueInLabelSelector: an old object whose selector has bad values keeps being accepted. */
function hasInvalidLabelValue(pdb: PodDisruptionBudget): boolean {
  const selector = pdb.spec?.selector;
  if (!isObj(selector)) return false;
  return (selector.matchExpressions ?? []).some((e) => (e?.values ?? []).some((v) => isValidLabelValue(v).length > 0));
}

export const podDisruptionBudgetStrategy: ResourceStrategy<PodDisruptionBudget> = {
  hasStatus: true,
  tracksGeneration: true,
  validate: (pdb) => validatePodDisruptionBudgetSpec(pdb),
  validateUpdate: (pdb, old) => validatePodDisruptionBudgetSpec(pdb, hasInvalidLabelValue(old)),
  prepareForStatusUpdate(pdb, old) {
    pdb.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (pdb) => validatePodDisruptionBudgetStatus(pdb),
};

/** intstr's String(): the number or the percent; N/A when unset. */
const intOrPercentCell = (v: unknown): string => (typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A');

export const podDisruptionBudgetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    return [fmt.nameCell(o), intOrPercentCell(spec.minAvailable), intOrPercentCell(spec.maxUnavailable), fmt.int(fmt.obj(o.status).disruptionsAllowed), fmt.ageCell(o, now)];
  },
};

export const podDisruptionBudgetModule: KindModule = { group: 'policy', kind: 'PodDisruptionBudget', strategy: podDisruptionBudgetStrategy, printer: podDisruptionBudgetPrinter };
