// The status rules the apps/v1 workloads share: counts non-negative, a count not above the one it
// is part of, and collisionCount never decremented.
import { child, num, obj, optNum, validateNonnegativeField, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';

/** Each of `fields` of the status must not be negative. */
export const statusCommon = (status: Obj, fields: string[]): FieldError[] => fields.flatMap((f) => validateNonnegativeField(num(status[f]), child('status', f)));

export function collisionCountErrors(obj1: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const cc = optNum(obj(obj1.status).collisionCount);
  const oldCC = optNum(obj(old.status).collisionCount);
  if (cc !== undefined) errs.push(...validateNonnegativeField(cc, 'status.collisionCount'));
  if ((cc === undefined && oldCC !== undefined) || (cc !== undefined && oldCC !== undefined && cc < oldCC)) {
    errs.push(fieldError.invalid('status.collisionCount', cc ?? 0, 'cannot be decremented'));
  }
  return errs;
}

export function greaterThan(status: Obj, field: string, than: string, msg: string): FieldError[] {
  return num(status[field]) > num(status[than]) ? [fieldError.invalid(child('status', field), num(status[field]), msg)] : [];
}
