// The string formats custom resources are validated against: the set apiextensions-apiserver keeps
// (pkg/apiserver/validation/formats.go; every other format, int32 and int64 included, is dropped
// before validation) with kube-openapi's strfmt checks for each. Names are normalized as go-openapi
// does (date-time and datetime are one format).
import { isIP } from 'node:net';

const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const hostname = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const date = /^(\d{4})-(\d{2})-(\d{2})$/;
/** strfmt's time part of a date-time (after lower-casing): seconds and a zone are required. */
const timePart = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const mac = /^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$|^([0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}$|^([0-9A-Fa-f]{2}[:-]){7}([0-9A-Fa-f]{2})$|^([0-9A-Fa-f]{2}[:-]){19}([0-9A-Fa-f]{2})$/;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const email = /^[^\s@<>()]+@[^\s@<>()]+$/;
const duration = /^(\d+)\s*([A-Za-zµ]+)$/;
const durationUnits = new Set(['ns', 'nano', 'nanos', 'nanosecond', 'nanoseconds', 'us', 'µs', 'micro', 'micros', 'microsecond', 'microseconds', 'ms', 'milli', 'millis', 'millisecond', 'milliseconds', 's', 'sec', 'secs', 'second', 'seconds', 'm', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours', 'd', 'day', 'days', 'w', 'wk', 'wks', 'week', 'weeks']);
const goDuration = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const ssn = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const hexcolor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbcolor = /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const bsonobjectid = /^[0-9a-fA-F]{24}$/;
const creditcard = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1]!;
}

/** strfmt.IsDateTime: a full date, "t" (any case), and an RFC 3339 time with zone. */
function isDateTime(str: string): boolean {
  if (str.length < 4) return false;
  const parts = str.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = timePart.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

function isDate(s: string): boolean {
  const m = date.exec(s);
  return m !== null && validDate(+m[1]!, +m[2]!, +m[3]!);
}

function isbn10(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^\d{9}[\dX]$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (i === 9 && d[i] === 'X' ? 10 : +d[i]!) * (10 - i);
  return sum % 11 === 0;
}

function isbn13(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += +d[i]! * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === +d[12]!;
}

/** Drops the leading zeros of dotted IPv4 parts, which Kubernetes' sloppy parsing accepts. */
const sloppy = (s: string): string => s.replace(/(^|[.:])0+(\d)/g, '$1$2');

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const family = isIP(sloppy(ip));
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return +bits <= (family === 4 ? 32 : 128);
}

const checks: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => bsonobjectid.test(s),
  uri: (s) => {
    if (s === '' || s.startsWith('.')) return false;
    try {
      new URL(s);
      return true;
    } catch {
      return s.startsWith('/');
    }
  },
  email: (s) => email.test(s),
  hostname: (s) => s.length <= 255 && hostname.test(s) && s.split('.').every((p) => p.length <= 63),
  // ParseIPSloppy: leading zeros allowed; an IPv6 form with a dotted tail counts too.
  ipv4: (s) => s.includes('.') && isIP(sloppy(s)) !== 0,
  ipv6: (s) => isIP(s) === 6,
  cidr: isCIDR,
  mac: (s) => mac.test(s),
  uuid: (s) => uuid.test(s),
  uuid3: (s) => uuid3.test(s),
  uuid4: (s) => uuid4.test(s),
  uuid5: (s) => uuid5.test(s),
  isbn: (s) => isbn10(s) || isbn13(s),
  isbn10,
  isbn13,
  creditcard: (s) => creditcard.test(s.replace(/[^0-9]/g, '')),
  ssn: (s) => ssn.test(s),
  hexcolor: (s) => hexcolor.test(s),
  rgbcolor: (s) => rgbcolor.test(s),
  byte: (s) => base64.test(s),
  password: () => true,
  date: isDate,
  duration: (s) => {
    if (goDuration.test(s) || s === '0') return true;
    const m = duration.exec(s.trim());
    return m !== null && durationUnits.has(m[2]!);
  },
  datetime: isDateTime,
};

/** The check of `format` if Kubernetes validates it for custom resources; undefined when the format is dropped. */
export function formatChecker(format: string | undefined): { name: string; check: (s: string) => boolean } | undefined {
  if (!format) return undefined;
  const check = checks[format.replace(/-/g, '')];
  return check ? { name: format, check } : undefined;
}
