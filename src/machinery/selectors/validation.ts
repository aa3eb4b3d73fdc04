// Kubernetes' name and label validation (apimachinery util/validation) with its exact messages,
// and the field.Error / ErrorList formatting the selector errors are written in.

import { goQuote } from '../patch/gofmt.js';

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
export const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LabelValueMaxLength = 63;
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

/** Go's len(): the length in UTF-8 bytes. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += ' or ';
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/** IsQualifiedName: `[prefix/]name`, prefix a DNS subdomain, name ≤ 63 characters. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  switch (parts.length) {
    case 1:
      name = parts[0]!;
      break;
    case 2: {
      const prefix = parts[0]!;
      name = parts[1]!;
      if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
      else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
      break;
    }
    default:
      return [
        `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}` +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > qualifiedNameMaxLength) errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!qualifiedNameRegexp.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** IsValidLabelValue: empty, or ≤ 63 characters of the qualified-name alphabet. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LabelValueMaxLength) errs.push(maxLenError(LabelValueMaxLength));
  if (!labelValueRegexp.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

// ---- field.Error as Kubernetes prints it

/** A field.Path rendered: undefined is Go's nil path, printed "<nil>". */
export type FieldPath = string | undefined;

/** A bad value: a string (printed %q), or a []string (printed %#v, as apimachinery v1.26 does). */
export type BadValue = string | { strings: readonly string[] | null };

/** field.Invalid(path, value, detail).Error(). */
export function fieldInvalid(path: FieldPath, value: BadValue, detail: string): string {
  const shown =
    typeof value === 'string'
      ? goQuote(value)
      : value.strings === null
        ? '[]string(nil)'
        : `[]string{${value.strings.map(goQuote).join(', ')}}`;
  return `${path ?? '<nil>'}: Invalid value: ${shown}${detail ? `: ${detail}` : ''}`;
}

/** field.ErrorList.ToAggregate().Error(): duplicates dropped; several are "[a, b]". */
export function aggregate(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  if (unique.length === 1) return unique[0];
  return `[${unique.join(', ')}]`;
}
