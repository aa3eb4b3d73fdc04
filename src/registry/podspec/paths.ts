// Paths a pod spec names on disk (subPaths, projected file paths, profile files, host paths):
// relative where they must be, never climbing out with "..".
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';

/** validatePathNoBacksteps: no ".." element. */
export function validatePathNoBacksteps(target: string, path: string): FieldError[] {
  return target.split('/').some((p) => p === '..') ? [fieldError.invalid(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, no "..". */
export function validateLocalDescendingPath(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldError.invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** ValidateLocalNonReservedPath: relative, no "..", does not start with "..". */
export function validateLocalNonReservedPath(target: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(fieldError.invalid(path, target, "must not start with '..'"));
  return errs;
}
