// The legacy IP and CIDR checks of fields that predate Kubernetes' strict rules
// (IsValidIPForLegacyField / IsValidCIDRForLegacyField with StrictIPCIDRValidation off, as in
// 1.33): the sloppy parse, and values the old object already held are accepted as they are.
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isValidCIDR, isValidIP } from '../../../machinery/validation/names.js';

export function validateIPs(path: string, value: string, allowed: readonly string[]): FieldError[] {
  if (allowed.includes(value)) return [];
  return isValidIP(value).map((m) => fieldError.invalid(path, value, m));
}

export function validateCIDRs(path: string, value: string, allowed: readonly string[]): FieldError[] {
  if (allowed.includes(value)) return [];
  return isValidCIDR(value).map((m) => fieldError.invalid(path, value, m));
}
