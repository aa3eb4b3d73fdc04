// The name and address checks of machinery/validation/names as field errors at a path, in the
// form most pod spec fields report them (Invalid, one error per message).
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidIP } from '../../machinery/validation/names.js';

export const dns1123Label = (value: string, path: string): FieldError[] => isDNS1123Label(value).map((msg) => fieldError.invalid(path, value, msg));
export const dns1123Subdomain = (value: string, path: string): FieldError[] => isDNS1123Subdomain(value).map((msg) => fieldError.invalid(path, value, msg));
export const qualifiedName = (value: string, path: string): FieldError[] => isQualifiedName(value).map((msg) => fieldError.invalid(path, value, msg));
export const validIP = (value: string, path: string): FieldError[] => isValidIP(value).map((msg) => fieldError.invalid(path, value, msg));
