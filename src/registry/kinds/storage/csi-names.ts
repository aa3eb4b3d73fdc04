// ValidateCSIDriverName (core validation): what CSINode drivers and VolumeAttachment attachers
// are named by, a lower-cased DNS subdomain of at most 63 characters.
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1123Subdomain } from '../../../machinery/validation/names.js';

export function validateCSIDriverName(name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(fieldError.required(path));
  if (name.length > 63) errs.push(fieldError.tooLong(path, 63));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(fieldError.invalid(path, name, msg));
  return errs;
}
