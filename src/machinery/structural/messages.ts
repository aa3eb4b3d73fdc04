// kube-openapi's validation errors (pkg/validation/errors) as apiextensions-apiserver turns them
// into field errors (kubeOpenAPIResultToFieldErrors): the message keeps kube-openapi's dotted name
// (`spec.replicas in body ...`), the field path is that name without its leading dot, and the root
// (an empty name) becomes the nil path, which Kubernetes prints as `<nil>`.
import type { FieldError } from '../validation/field-errors.js';
import { fieldError } from '../validation/field-errors.js';
import { goBadValue, goNumber } from './go-format.js';

const IN = 'body';

/** Errors of a value validated on its own, moved under `base` as Kubernetes' fldPath.Child(name) does
 * (the value's own errors, on the nil path, land on `base`; a name is always a child, even `[0]`). */
export function rebase(errs: readonly FieldError[], base: string): FieldError[] {
  if (base === '') return [...errs];
  return errs.map((e) => ({ ...e, field: e.field === '<nil>' ? base : `${base}.${e.field}` }));
}

export function fieldOf(name: string): string {
  if (name === '' || name === '.') return '<nil>';
  return name.startsWith('.') ? name.slice(1) : name;
}

function invalid(name: string, value: unknown, detail: string): FieldError {
  if (typeof value === 'number' && !Number.isInteger(value)) return fieldError.invalidRaw(fieldOf(name), goNumber(value), detail);
  return fieldError.invalid(fieldOf(name), value === undefined || value === null ? '' : value, detail);
}

export const openAPIError = {
  /** InvalidType: the value is the name of the type (or format) found, quoted in the message. */
  invalidType: (name: string, typeName: string, found: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field: fieldOf(name),
    badValue: { kind: 'plain', value: found },
    detail: `${name} in ${IN} must be of type ${typeName}: ${JSON.stringify(found)}`,
  }),
  required: (name: string): FieldError => fieldError.required(fieldOf(name), ''),
  enum: (name: string, value: unknown, values: readonly unknown[]): FieldError => {
    const e = fieldError.notSupported(fieldOf(name), value === undefined ? null : value, values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
    // Objects and arrays print as Go's %#v of the decoded value.
    return typeof value === 'object' && value !== null ? { ...e, badValue: { kind: 'raw', text: goBadValue(value) } } : e;
  },
  /** field.TooLong as apimachinery 1.33 words it ("may not be more than 2 bytes", validation_test's maxLength case). */
  tooLong: (name: string, max: number): FieldError => ({
    type: 'FieldValueTooLong',
    field: fieldOf(name),
    badValue: { kind: 'none' },
    detail: max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long',
  }),
  tooShort: (name: string, value: string, min: number): FieldError => invalid(name, value, `${name} in ${IN} should be at least ${min} chars long`),
  pattern: (name: string, value: string, pattern: string): FieldError => invalid(name, value, `${name} in ${IN} should match '${pattern}'`),
  tooManyItems: (name: string, size: number, max: number): FieldError => fieldError.tooMany(fieldOf(name), size, max),
  tooFewItems: (name: string, size: number, min: number): FieldError => invalid(name, size, `${name} in ${IN} should have at least ${min} items`),
  duplicateItems: (name: string): FieldError => invalid(name, '', `${name} in ${IN} shouldn't contain duplicates`),
  tooManyProperties: (name: string, size: number, max: number): FieldError => fieldError.tooMany(fieldOf(name), size, max),
  tooFewProperties: (name: string, size: number, min: number): FieldError => invalid(name, size, `${name} in ${IN} should have at least ${min} properties`),
  forbiddenProperty: (name: string, key: string): FieldError => invalid(name, key, `${name}.${key} in ${IN} is a forbidden property`),
  maximum: (name: string, value: number, bound: string, exclusive: boolean): FieldError =>
    invalid(name, value, `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${bound}`),
  minimum: (name: string, value: number, bound: string, exclusive: boolean): FieldError =>
    invalid(name, value, `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${bound}`),
  multipleOf: (name: string, value: number, factor: string): FieldError => invalid(name, value, `${name} in ${IN} should be a multiple of ${factor}`),
  multipleOfMustBePositive: (name: string, factor: string): FieldError => invalid(name, Number(factor), `factor MultipleOf declared for ${name} must be positive: ${factor}`),
  /** The composite (allOf/anyOf/oneOf/not) errors are plain errors, not Validation ones: Kubernetes
   * reports them on the nil path with an empty value. */
  composite: (detail: string): FieldError => fieldError.invalid('<nil>', '', detail),
};
