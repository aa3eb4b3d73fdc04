// Kubernetes' string format checks (k8s.io/apimachinery/pkg/util/validation and the name
// functions of pkg/api/validation), each returning the exact messages kube-apiserver puts in
// `details.causes` — an empty list when the value is valid. Field errors are built from these
// messages by the callers (`fieldError.invalid(path, value, msg)`), as Kubernetes does.

// ---- message builders (validation.MaxLenError, RegexError, EmptyError, InclusiveRangeError) ----

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')` — Go's RegexError, double space included. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Go's len(): UTF-8 bytes. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

const full = (fmt: string) => new RegExp(`^(?:${fmt})$`);

// ---- qualified names and label values ----

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
export const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const qualifiedNameMaxLength = 63;
const qualifiedNameRe = full(qualifiedNameFmt);

/**
 * Qualified names found valid: label and annotation keys and resource names are the same few on
 * object after object (bounded; a miss only costs the check).
 */
const validQualifiedNames = new Set<string>();
const VALID_QUALIFIED_NAMES_MAX = 4096;

/** IsQualifiedName: an optional DNS-1123 subdomain prefix and '/', then a name part of at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  if (validQualifiedNames.has(value)) return [];
  const errs = qualifiedNameErrors(value);
  if (errs.length === 0) {
    if (validQualifiedNames.size >= VALID_QUALIFIED_NAMES_MAX) validQualifiedNames.clear();
    validQualifiedNames.add(value);
  }
  return errs;
}

function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > qualifiedNameMaxLength) errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!qualifiedNameRe.test(name)) errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const labelValueMaxLength = 63;
const labelValueRe = full(labelValueFmt);

/** IsValidLabelValue: empty, or at most 63 characters of the qualified-name alphabet. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

// ---- DNS names ----

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const DNS1123LabelMaxLength = 63;
const dns1123LabelRe = full(dns1123LabelFmt);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123SubdomainMaxLength = 253;
const dns1123SubdomainRe = full(dns1123SubdomainFmt);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const DNS1035LabelMaxLength = 63;
const dns1035LabelRe = full(dns1035LabelFmt);

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123LabelMaxLength) errs.push(maxLenError(DNS1123LabelMaxLength));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a valid label: it can only be the dots (length was checked).
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035LabelMaxLength) errs.push(maxLenError(DNS1035LabelMaxLength));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

// ---- object names (apimachinery pkg/api/validation/generic.go) ----

/**
 * A name validator: the messages for `name`; `prefix` is true for a generateName prefix, where a
 * trailing dash is allowed (it is masked before checking, as Kubernetes' maskTrailingDash does).
 */
export type NameValidator = (name: string, prefix: boolean) => string[];

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** Path segment names may not be "." or ".." and may not contain "/" or "%" (IsValidPathSegmentName). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
/** ValidateNamespaceName. */
export const validateNamespaceName: NameValidator = nameIsDNSLabel;
/** ValidateServiceAccountName. */
export const validateServiceAccountName: NameValidator = nameIsDNSSubdomain;

// ---- config keys, env vars, C identifiers ----

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRe = full(configMapKeyFmt);

/** IsConfigMapKey: a key of a ConfigMap or Secret. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!configMapKeyRe.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameFmtErrMsg = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const envVarNameRe = full(envVarNameFmt);

/** IsEnvVarName (the strict form of v1.26; RelaxedEnvironmentVariableValidation off). */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRe.test(value)) errs.push(regexError(envVarNameFmtErrMsg, envVarNameFmt, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierErrMsg = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const cIdentifierRe = full(cIdentifierFmt);

export function isCIdentifier(value: string): string[] {
  return cIdentifierRe.test(value) ? [] : [regexError(cIdentifierErrMsg, cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
}

// ---- ports, ranges, ids, percents, headers ----

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

export function isValidGroupID(gid: number): string[] {
  return gid >= 0 && gid <= 0xffffffff ? [] : [inclusiveRangeError(0, 0xffffffff)];
}

export function isValidUserID(uid: number): string[] {
  return uid >= 0 && uid <= 0xffffffff ? [] : [inclusiveRangeError(0, 0xffffffff)];
}

/** IsValidPortName: IANA_SVC_NAME (at most 15 characters, [-a-z0-9], at least one letter, no '--', no leading/trailing '-'). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

const percentFmt = '[0-9]+%';
const percentRe = full(percentFmt);

export function isValidPercent(percent: string): string[] {
  return percentRe.test(percent) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, '1%', '93%')];
}

const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const httpHeaderNameRe = full(httpHeaderNameFmt);

export function isHTTPHeaderName(value: string): string[] {
  return httpHeaderNameRe.test(value) ? [] : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", httpHeaderNameFmt, 'X-Header-Name')];
}

// ---- IP addresses ----

const ipv4Re = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** Go's net.ParseIP for IPv4 in the sloppy form (leading zeros allowed, as netutils.ParseIPSloppy). */
const ipv4SloppyRe = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseIPv4(s: string, sloppy: boolean): number[] | undefined {
  if (!sloppy && !ipv4Re.test(s)) return undefined;
  const m = ipv4SloppyRe.exec(s);
  if (!m) return undefined;
  const parts = m.slice(1, 5).map((x) => Number(x));
  return parts.every((p) => p <= 255) ? parts : undefined;
}

/** The 16 bytes of an IPv6 address (IPv4-mapped and embedded-IPv4 forms included), or undefined. */
function parseIPv6(s: string): number[] | undefined {
  if (!s.includes(':') || s.includes('%')) return undefined;
  let head = s;
  let tail4: number[] | undefined;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    tail4 = parseIPv4(s.slice(lastColon + 1), false);
    if (!tail4) return undefined;
    head = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const dbl = head.indexOf('::');
  if (dbl !== head.lastIndexOf('::')) return undefined;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  let groups: string[];
  if (dbl >= 0) {
    const left = groupsOf(head.slice(0, dbl));
    const right = groupsOf(head.slice(dbl + 2));
    const missing = 8 - left.length - right.length;
    if (missing < 1) return undefined;
    groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  } else {
    groups = head.split(':');
  }
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const bytes: number[] = [];
  for (const g of groups) {
    const v = parseInt(g, 16);
    bytes.push(v >> 8, v & 0xff);
  }
  if (tail4) bytes.splice(12, 4, ...tail4);
  return bytes;
}

/** The address as 4 (IPv4) or 16 (IPv6) bytes when it parses (netutils.ParseIPSloppy), else undefined. */
export function parseIP(s: string, sloppy = true): number[] | undefined {
  return parseIPv4(s, sloppy) ?? parseIPv6(s);
}

export function isIPv6String(s: string): boolean {
  return parseIPv4(s, true) === undefined && parseIPv6(s) !== undefined;
}

/** IsValidIP (the v1.26 form): "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)". */
export function isValidIP(value: string): string[] {
  return parseIP(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

/** IsValidCIDR (v1.26): "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)". */
export function isValidCIDR(value: string): string[] {
  const slash = value.indexOf('/');
  if (slash > 0) {
    const ip = parseIP(value.slice(0, slash));
    const bits = value.slice(slash + 1);
    if (ip && /^\d{1,3}$/.test(bits) && Number(bits) <= ip.length * 8) return [];
  }
  return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
}
