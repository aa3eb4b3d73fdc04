// scheduling.k8s.io PriorityClass: ValidatePriorityClass / ValidatePriorityClassUpdate (the
// `system-` names reserved, user values capped, value and preemptionPolicy immutable) and its
// printer; the system classes cannot be deleted. The only-one-global-default rule and the pods'
// priorities are the Priority admission plugin's (apiserver/admission/priority.ts).
import type { PriorityClass } from '../../../api/types.js';
import { bool, num, optStr, str, validateImmutableField } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { nameOf } from '../../../api/meta/object.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { HIGHEST_USER_DEFINABLE_PRIORITY, isSystemPriorityClassName, knownSystemPriorityClassError, SYSTEM_PRIORITY_CLASS_PREFIX } from './system-priority-classes.js';

const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** ValidatePreemptionPolicy (core validation), for a set policy. */
export function validatePreemptionPolicy(policy: string, path: string): FieldError[] {
  if (policy === '') return [fieldError.required(path)];
  return PREEMPTION_POLICIES.includes(policy) ? [] : [fieldError.notSupported(path, policy, PREEMPTION_POLICIES)];
}

export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  const name = nameOf(pc);
  const value = num(pc.value);
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const why = knownSystemPriorityClassError(name, value, bool(pc.globalDefault));
    if (why !== undefined) errs.push(fieldError.forbidden('metadata.name', `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${why}`));
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(fieldError.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policy = optStr(pc.preemptionPolicy);
  if (policy !== undefined) errs.push(...validatePreemptionPolicy(policy, 'preemptionPolicy'));
  return errs;
}

export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if (num(pc.value) !== num(old.value)) errs.push(fieldError.forbidden('value', 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'));
  return errs;
}

export const priorityClassStrategy: ResourceStrategy<PriorityClass> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (pc) => validatePriorityClass(pc),
  validateUpdate: (pc, old) => validatePriorityClassUpdate(pc, old),
};

const priorityClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Value', 'integer', 'The priority pods of this class receive.'),
    column('Global-Default', 'boolean', 'Whether pods naming no class receive this one.'),
    ageColumn,
    column('PreemptionPolicy', 'string', 'Whether pods of this class may preempt lower-priority pods.'),
  ],
  cells: (o, now) => [fmt.nameCell(o), fmt.int(o.value), o.globalDefault === true, fmt.ageCell(o, now), str(o.preemptionPolicy)],
};

export const priorityClassModule: KindModule = {
  group: 'scheduling.k8s.io',
  kind: 'PriorityClass',
  strategy: priorityClassStrategy,
  printer: priorityClassPrinter,
  // The priorityclasses REST storage's Delete.
  refuseDelete: (name) => (isSystemPriorityClassName(name) ? 'this is a system priority class and cannot be deleted' : undefined),
};
