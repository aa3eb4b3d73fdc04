// Two string formats of apimachinery's util/validation the networking kinds use: wildcard DNS
// subdomains (an Ingress's `*.example.com` hosts) and domain-prefixed paths (an IngressClass's
// controller, `example.com/ingress`).
import { fieldError, type FieldError } from './field-errors.js';
import { byteLength, isDNS1123Subdomain, maxLenError, regexError } from './names.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const wildcardFmt = `\\*\\.${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const wildcardRe = new RegExp(`^${wildcardFmt}$`);
const wildcardErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

/** IsWildcardDNS1123Subdomain. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!wildcardRe.test(value)) errs.push(regexError(wildcardErrMsg, wildcardFmt, '*.example.com'));
  return errs;
}

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

/** IsDomainPrefixedPath: `<DNS-1123 subdomain>/<HTTP path>`. */
export function validateDomainPrefixedPath(path: string, value: string): FieldError[] {
  if (value === '') return [fieldError.required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') return [fieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((m) => fieldError.invalid(path, host, m));
  if (!httpPathRe.test(rest)) errs.push(fieldError.invalid(path, rest, regexError('Invalid path', httpPathFmt)));
  return errs;
}
