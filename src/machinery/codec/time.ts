// metav1.Time, metav1.MicroTime and metav1.Duration in their JSON forms, as Go reads and writes them.
// - Time: RFC 3339 in UTC with whole seconds ("2026-11-22T02:34:38Z"); parsing accepts offsets and
//   fractional seconds (dropped); the zero time is JSON null.
// - MicroTime: RFC 3339 with exactly six fractional digits ("2026-11-22T02:34:38.123456Z").
// - Duration: Go's time.Duration string ("1h2m3.5s"), int64 nanoseconds.

/** Seconds from 0001-01-01T00:00:00Z to the Unix epoch: the zero metav1.Time. */
export const ZERO_TIME_UNIX = -62135596800;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function num2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  if (a < 0 || a > 9 || b < 0 || b > 9) return -1;
  return a * 10 + b;
}

export interface ParsedTime {
  /** Unix seconds (UTC). */
  seconds: number;
  /** Nanoseconds within the second (0..999999999). */
  nanos: number;
}

/**
 * Go's time.Parse with layout RFC 3339 ("2006-01-02T15:04:05Z07:00"), or with RFC3339Micro when
 * `fracDigits` is 6 (then exactly six fractional digits are required). Returns undefined when it
 * does not parse. Hours may have one digit (as Go 1.19 accepts).
 */
export function parseRfc3339(s: string, fracDigits?: 6): ParsedTime | undefined {
  // YYYY-MM-DDTHH:MM:SS[.frac](Z|±hh:mm)
  if (s.length < 19) return undefined;
  const y0 = num2(s, 0);
  const y1 = num2(s, 2);
  if (y0 < 0 || y1 < 0 || s.charCodeAt(4) !== 45) return undefined;
  const year = y0 * 100 + y1;
  const month = num2(s, 5);
  if (month < 1 || month > 12 || s.charCodeAt(7) !== 45) return undefined;
  const day = num2(s, 8);
  const dim = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > dim || s.charCodeAt(10) !== 84 /* T */) return undefined;
  let i = 11;
  let hour: number;
  if (s.charCodeAt(i + 1) === 58) {
    hour = s.charCodeAt(i) - 48;
    if (hour < 0 || hour > 9) return undefined;
    i += 2;
  } else {
    hour = num2(s, i);
    if (hour < 0 || hour > 23 || s.charCodeAt(i + 2) !== 58) return undefined;
    i += 3;
  }
  const minute = num2(s, i);
  if (minute < 0 || minute > 59 || s.charCodeAt(i + 2) !== 58) return undefined;
  i += 3;
  const second = num2(s, i);
  if (second < 0 || second > 59) return undefined;
  i += 2;
  let nanos = 0;
  if (fracDigits === 6) {
    if (s.charCodeAt(i) !== 46) return undefined;
    for (let k = 1; k <= 6; k++) {
      const c = s.charCodeAt(i + k) - 48;
      if (!(c >= 0 && c <= 9)) return undefined;
      nanos = nanos * 10 + c;
    }
    nanos *= 1000;
    i += 7;
  } else if ((s.charCodeAt(i) === 46 || s.charCodeAt(i) === 44) && s.charCodeAt(i + 1) >= 48 && s.charCodeAt(i + 1) <= 57) {
    i++;
    let scale = 100000000;
    while (i < s.length) {
      const c = s.charCodeAt(i) - 48;
      if (!(c >= 0 && c <= 9)) break;
      nanos += c * scale;
      scale = Math.floor(scale / 10);
      i++;
    }
  }
  let offset = 0;
  const z = s.charCodeAt(i);
  if (z === 90 /* Z */) {
    if (i + 1 !== s.length) return undefined;
  } else if (z === 43 || z === 45) {
    if (i + 6 !== s.length || s.charCodeAt(i + 3) !== 58) return undefined;
    const oh = num2(s, i + 1);
    const om = num2(s, i + 4);
    if (oh < 0 || om < 0) return undefined;
    offset = (oh * 3600 + om * 60) * (z === 45 ? -1 : 1);
  } else return undefined;
  return { seconds: daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset, nanos };
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const FMT_MIN = ZERO_TIME_UNIX; // 0001-01-01
const FMT_MAX = 253402300799; // 9999-12-31T23:59:59Z

const pad2 = (n: number): string => (n < 10 ? '0' + n : String(n));

let lastSeconds = NaN;
let lastFormatted = '';

/** Formats Unix seconds as Go's RFC 3339 UTC ("2006-01-02T15:04:05Z"); undefined outside years 0..9999. */
export function formatRfc3339(seconds: number): string | undefined {
  if (seconds === lastSeconds) return lastFormatted;
  if (!Number.isInteger(seconds) || !(seconds >= FMT_MIN - 31622400 && seconds <= FMT_MAX)) return undefined;
  const days = Math.floor(seconds / 86400);
  let rem = seconds - days * 86400;
  // H. Hinnant's civil_from_days.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rem / 3600);
  rem -= hour * 3600;
  const minute = Math.floor(rem / 60);
  const second = rem - minute * 60;
  const out = `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}Z`;
  lastSeconds = seconds;
  lastFormatted = out;
  return out;
}

/** Formats as RFC3339Micro ("2006-01-02T15:04:05.000000Z"). */
export function formatRfc3339Micro(seconds: number, nanos: number): string | undefined {
  const base = formatRfc3339(seconds);
  if (base === undefined) return undefined;
  const micros = Math.floor(nanos / 1000);
  return base.slice(0, 19) + '.' + String(micros).padStart(6, '0') + 'Z';
}

const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/**
 * The canonical JSON value of a metav1.Time given as a string: RFC 3339 UTC seconds, or null for
 * the zero time. undefined when it does not parse.
 */
export function canonicalTime(s: string): string | null | undefined {
  if (s.length === 20 && CANONICAL_TIME.test(s)) {
    if (parseRfc3339(s) === undefined) return undefined;
    return s === '0001-01-01T00:00:00Z' ? null : s;
  }
  const t = parseRfc3339(s);
  if (t === undefined) return undefined;
  if (t.seconds === ZERO_TIME_UNIX) return null;
  return formatRfc3339(t.seconds);
}

/** The canonical JSON value of a metav1.MicroTime string (null for the zero time). */
export function canonicalMicroTime(s: string): string | null | undefined {
  const t = parseRfc3339(s, 6);
  if (t === undefined) return undefined;
  if (t.seconds === ZERO_TIME_UNIX && t.nanos === 0) return null;
  return formatRfc3339Micro(t.seconds, t.nanos);
}

/** The error text of Go's time.Parse for a string that does not parse as `layout`. */
export function timeParseError(s: string, micro = false): string {
  const layout = micro ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
  return `parsing time ${JSON.stringify(s)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(s)} as "2006"`;
}

// ---------------------------------------------------------------------------------------------
// time.Duration
// ---------------------------------------------------------------------------------------------

const NS_PER: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n, // U+00B5
  'μs': 1000n, // U+03BC
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};
const MAX_DURATION = (1n << 63n) - 1n;

export class DurationError extends Error {}

/** Go's time.ParseDuration, to int64 nanoseconds. Throws DurationError with Go's message. */
export function parseDuration(s: string): bigint {
  const orig = s;
  const quoted = JSON.stringify(orig);
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw new DurationError(`time: invalid duration ${quoted}`);
  let total = 0n;
  while (s !== '') {
    let i = 0;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    const intPart = s.slice(0, i);
    s = s.slice(i);
    let frac = '';
    if (s[0] === '.') {
      s = s.slice(1);
      i = 0;
      while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
      frac = s.slice(0, i);
      s = s.slice(i);
    }
    if (intPart === '' && frac === '') throw new DurationError(`time: invalid duration ${quoted}`);
    i = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '.' || (c >= '0' && c <= '9')) break;
      i++;
    }
    if (i === 0) throw new DurationError(`time: missing unit in duration ${quoted}`);
    const unitName = s.slice(0, i);
    s = s.slice(i);
    const unit = NS_PER[unitName];
    if (unit === undefined) throw new DurationError(`time: unknown unit ${JSON.stringify(unitName)} in duration ${quoted}`);
    let v = BigInt(intPart === '' ? '0' : intPart) * unit;
    if (frac !== '') v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
    if (total > MAX_DURATION + (neg ? 1n : 0n)) throw new DurationError(`time: invalid duration ${quoted}`);
  }
  return neg ? -total : total;
}

function fmtFrac(v: bigint, prec: number): [string, bigint] {
  let out = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print ||= digit !== 0n;
    if (print) out = digit.toString() + out;
    v /= 10n;
  }
  if (print) out = '.' + out;
  return [out, v];
}

/** Go's time.Duration.String(). */
export function formatDuration(ns: bigint): string {
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1000000000n) {
    if (u === 0n) return '0s';
    let prec: number;
    let unit: string;
    if (u < 1000n) {
      prec = 0;
      unit = 'ns';
    } else if (u < 1000000n) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const [frac, rest] = fmtFrac(u, prec);
    out = rest.toString() + frac + unit;
  } else {
    const [frac, secs] = fmtFrac(u, 9);
    u = secs;
    out = (u % 60n).toString() + frac + 's';
    u /= 60n;
    if (u > 0n) {
      out = (u % 60n).toString() + 'm' + out;
      u /= 60n;
      if (u > 0n) out = u.toString() + 'h' + out;
    }
  }
  return neg ? '-' + out : out;
}

/** The canonical JSON string of a metav1.Duration given as a string. Throws DurationError. */
export function canonicalDuration(s: string): string {
  return formatDuration(parseDuration(s));
}
