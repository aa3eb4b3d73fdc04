// metav1 Conditions (apimachinery meta/v1/validation ValidateConditions): the status conditions
// of the kinds that use metav1.Condition (PodDisruptionBudget, ...), checked on status writes.
import { child, index, num, objs, str, validateLabelName } from './common.js';
import { fieldError, type FieldError } from './field-errors.js';
import { byteLength, regexError } from './names.js';

const STATUSES = ['False', 'True', 'Unknown'];
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);
const REASON_MSG = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const MAX_REASON = 1024;
const MAX_MESSAGE = 32 * 1024;

/** ValidateCondition. */
export function validateCondition(c: Record<string, unknown>, path: string): FieldError[] {
  const errs = validateLabelName(str(c.type), child(path, 'type'));
  const status = str(c.status);
  if (!STATUSES.includes(status)) errs.push(fieldError.notSupported(child(path, 'status'), status, STATUSES));
  if (num(c.observedGeneration) < 0) errs.push(fieldError.invalid(child(path, 'observedGeneration'), num(c.observedGeneration), 'must be greater than or equal to zero'));
  if (typeof c.lastTransitionTime !== 'string' || c.lastTransitionTime === '') errs.push(fieldError.required(child(path, 'lastTransitionTime'), 'must be set'));
  const reason = str(c.reason);
  if (reason === '') errs.push(fieldError.required(child(path, 'reason'), 'must be set'));
  else {
    if (!REASON_RE.test(reason)) errs.push(fieldError.invalid(child(path, 'reason'), reason, regexError(REASON_MSG, REASON_FMT, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
    if (byteLength(reason) > MAX_REASON) errs.push(fieldError.tooLong(child(path, 'reason'), MAX_REASON));
  }
  if (byteLength(str(c.message)) > MAX_MESSAGE) errs.push(fieldError.tooLong(child(path, 'message'), MAX_MESSAGE));
  return errs;
}

/** ValidateConditions: each condition, and no type twice. */
export function validateConditions(conditions: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(conditions).forEach((c, i) => {
    const type = str(c.type);
    if (seen.has(type)) errs.push(fieldError.duplicate(child(index(path, i), 'type'), type));
    seen.add(type);
    errs.push(...validateCondition(c, index(path, i)));
  });
  return errs;
}
