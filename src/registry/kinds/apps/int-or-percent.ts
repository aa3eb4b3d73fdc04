// Rolling update bounds of the apps/v1 workloads: an int or a percent (intstr.IntOrString), as
// pkg/apis/apps/validation checks and reads them.
import { num } from '../../../machinery/validation/common.js';
import type { FieldError } from '../../../machinery/validation/field-errors.js';
import { goIntOrString, rawError } from '../../../machinery/validation/go-syntax.js';
import { isValidPercent } from '../../../machinery/validation/names.js';
import { validateNonnegativeField } from '../../../machinery/validation/common.js';

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((msg) => rawError('FieldValueInvalid', path, goIntOrString(v), msg));
  return validateNonnegativeField(num(v), path);
}

/** A percent's number (undefined when not a valid percent). */
export function percentValue(v: unknown): number | undefined {
  return typeof v === 'string' && isValidPercent(v).length === 0 ? Number(v.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue: the percent's number, else IntValue() (a non-numeric string is 0). */
export function intOrPercentValue(v: unknown): number {
  const p = percentValue(v);
  if (p !== undefined) return p;
  if (typeof v === 'number') return v;
  return typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

export function isNotMoreThan100Percent(v: unknown, path: string): FieldError[] {
  const p = percentValue(v);
  return p !== undefined && p > 100 ? [rawError('FieldValueInvalid', path, goIntOrString(v), 'must not be greater than 100%')] : [];
}
