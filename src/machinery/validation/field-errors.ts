// Kubernetes' field validation errors (apimachinery field.Error): the types, the message each
// renders to (Go's value formatting included), and the 422 Invalid Status they become, so that
// clients see exactly the text and `details.causes` a real API server returns.

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** A Go value, for formatting: strings quote, numbers and bools print plain, maps print Go-style. */
export type GoValue =
  | { kind: 'none' }
  | { kind: 'plain'; value: unknown }
  /** A map[string]string, printed as Go's %#v does. */
  | { kind: 'stringMap'; value: Record<string, string> }
  /** A value already rendered as Go prints it (%#v of a struct, a Stringer's text, ...). */
  | { kind: 'raw'; text: string }
  /** field.OmitValueType: the message carries no value at all (`Invalid value: <detail>`). */
  | { kind: 'omit' };

export interface FieldError {
  type: FieldErrorType;
  /** The field path as Kubernetes writes it: `spec.containers[0].name`, `metadata.labels`. */
  field: string;
  badValue: GoValue;
  detail: string;
}

function goQuote(s: string): string {
  // Go's %q: a double-quoted string with Go escapes; JSON escaping agrees for what appears in names.
  return JSON.stringify(s);
}

function formatValue(v: GoValue): string {
  if (v.kind === 'none' || v.kind === 'omit') return '';
  if (v.kind === 'raw') return v.text;
  if (v.kind === 'stringMap') {
    const keys = Object.keys(v.value).sort();
    return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(v.value[k]!)}`).join(', ')}}`;
  }
  const value = v.value;
  // A nil interface or nil pointer becomes the string "null", which %q then quotes.
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'string')) return `[]string{${value.map((x) => goQuote(x as string)).join(', ')}}`;
  if (Array.isArray(value)) return `[]interface {}{${value.map((x) => formatValue({ kind: 'plain', value: x })).join(', ')}}`;
  return JSON.stringify(value);
}

/** The message of one error without its field path (Kubernetes' ErrorBody). */
export function errorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  const simple = e.type === 'FieldValueRequired' || e.type === 'FieldValueForbidden' || e.type === 'FieldValueTooLong' || e.type === 'InternalError';
  if (!simple && e.badValue.kind !== 'none' && e.badValue.kind !== 'omit') s = `${s}: ${formatValue(e.badValue)}`;
  if (e.detail !== '') s = `${s}: ${e.detail}`;
  return s;
}

export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

const plain = (value: unknown): GoValue => ({ kind: 'plain', value });
const none: GoValue = { kind: 'none' };

export const fieldError = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, badValue: none, detail }),
  invalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue: plain(value), detail }),
  invalidMap: (field: string, value: Record<string, string>, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue: { kind: 'stringMap', value }, detail }),
  /** Invalid with a value rendered by the caller in Go syntax (see go-syntax.ts). */
  invalidRaw: (field: string, text: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue: { kind: 'raw', text }, detail }),
  /** Invalid without a value (field.OmitValueType). */
  invalidOmit: (field: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue: { kind: 'omit' }, detail }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue: plain(value), detail: '' }),
  notFound: (field: string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue: plain(value), detail: '' }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, badValue: none, detail }),
  tooLong: (field: string, maxLength: number): FieldError => ({ type: 'FieldValueTooLong', field, badValue: none, detail: `must have at most ${maxLength} bytes` }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({ type: 'FieldValueTooMany', field, badValue: plain(actual), detail: `must have at most ${max} items` }),
  internal: (field: string, detail: string): FieldError => ({ type: 'InternalError', field, badValue: none, detail }),
  /** Unsupported value with Kubernetes' `supported values: "a", "b"` detail. */
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    badValue: plain(value),
    detail: supported.length > 0 ? `supported values: ${supported.map(goQuote).join(', ')}` : '',
  }),
};

/** `Kind.group` as Kubernetes names a group kind in messages (just `Kind` for the core group). */
export function qualifiedKind(kind: string, group: string): string {
  return group === '' ? kind : `${kind}.${group}`;
}

/** The meta/v1 Status of a 422 Invalid answer for `errors` (which must not be empty). */
export function invalidStatus(kind: string, group: string, name: string, errors: readonly FieldError[]): Record<string, unknown> {
  const list = errors.map(formatFieldError);
  const aggregate = list.length === 1 ? list[0]! : `[${list.join(', ')}]`;
  const details: Record<string, unknown> = {};
  if (name !== '') details.name = name;
  if (group !== '') details.group = group;
  details.kind = kind;
  details.causes = errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${qualifiedKind(kind, group)} ${goQuote(name)} is invalid: ${aggregate}`,
    reason: 'Invalid',
    details,
    code: 422,
  };
}
