// resource.Quantity (k8s.io/apimachinery/pkg/api/resource): Kubernetes' fixed-point quantities
// ("500m", "1.5Gi", "2e9"), parsed, compared, added and printed exactly as Kubernetes does. The one
// implementation for every layer: defaulting and the schema here in api/, the codecs in machinery/,
// validation in registry/, the scheduler's arithmetic.
// - a value is an exact decimal, rounded up (away from zero) to nano precision on parse;
// - it remembers its format: DecimalSI (m, k, M, ...), BinarySI (Ki, Mi, ...) or DecimalExponent (e3);
// - the canonical string has no fractional digits and the largest exponent/suffix that loses
//   nothing: 1.5 → 1500m, 1.5Gi → 1536Mi, 0.1 → 100m, 1000m → 1, 1000 → 1k, 1e3 → 1e3;
// - BinarySI values below 1024 (or not integral) print as DecimalSI; BinarySI is capped at 2^63-1.
// Values are held as (unscaled BigInt, base-10 exponent) so huge exponents ("1e999999999") cost
// nothing. Where Kubernetes v1.26 prints a DecimalSI value beyond 10^18 without its magnitude
// ("1000E" → "1"), this prints it in exponent form ("1e21"), as later Kubernetes releases do.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** The error strings of k8s.io/apimachinery/pkg/api/resource. */
export const ErrFormatWrong =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ErrNumeric = 'unable to parse numeric part of quantity';
export const ErrSuffix = "unable to parse quantity's suffix";

export class QuantityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityError';
  }
}

const MAX_INT64 = (1n << 63n) - 1n;
const MAX_INT32 = 2147483647;

const DEC_SUFFIX_EXP: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BIN_SUFFIX_EXP: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DEC_EXP_SUFFIX = new Map<number, string>(Object.entries(DEC_SUFFIX_EXP).map(([s, e]) => [e, s]));
const BIN_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const POW10: bigint[] = [];
function pow10(n: number): bigint {
  if (n < 64) {
    let p = POW10[n];
    if (p === undefined) POW10[n] = p = 10n ** BigInt(n);
    return p;
  }
  return 10n ** BigInt(n);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** Number of decimal digits of |x| (x != 0). */
function digits(x: bigint): number {
  return abs(x).toString().length;
}

/** Divides by 10^n rounding away from zero. */
function divPow10RoundUp(x: bigint, n: number): bigint {
  const d = pow10(n);
  const q = x / d;
  if (q * d === x) return q;
  return x < 0n ? q - 1n : q + 1n;
}

export class Quantity {
  /** value = unscaled × 10^exponent, with no trailing decimal zeros in `unscaled` (0 has exponent 0). */
  readonly unscaled: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  private canonical: string | undefined;

  constructor(unscaled: bigint, exponent: number, format: QuantityFormat) {
    if (unscaled === 0n) exponent = 0;
    else
      while (unscaled % 10n === 0n) {
        unscaled /= 10n;
        exponent++;
      }
    this.unscaled = unscaled;
    this.exponent = exponent;
    this.format = format;
  }

  /**
   * resource.ParseQuantity: the exact string, no surrounding spaces. Throws QuantityError with
   * Kubernetes' message. Not memoized; `parseQuantity` is, for values read out of objects.
   */
  static parse(str: string): Quantity {
    const q = parseOrError(str);
    if (typeof q === 'string') throw new QuantityError(q);
    return q;
  }

  /** NewQuantity(value, format). */
  static fromValue(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(value), 0, format);
  }

  /** NewMilliQuantity(value, format): value/1000. */
  static fromMilli(milli: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(milli), -3, format);
  }

  /** NewScaledQuantity(value, scale): value × 10^scale, DecimalSI. */
  static fromScaled(value: number | bigint, scale: number): Quantity {
    return new Quantity(BigInt(value), scale, 'DecimalSI');
  }

  isZero(): boolean {
    return this.unscaled === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.unscaled === 0n ? 0 : this.unscaled < 0n ? -1 : 1;
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `other`. */
  cmp(other: Quantity): -1 | 0 | 1 {
    return cmpDec(this.unscaled, this.exponent, other.unscaled, other.exponent);
  }

  equals(other: Quantity): boolean {
    return this.cmp(other) === 0;
  }

  /** ScaledValue(scale): ceil(q / 10^scale) away from zero, as a bigint. */
  scaledValueBig(scale: number): bigint {
    if (this.unscaled === 0n) return 0n;
    const shift = this.exponent - scale;
    if (shift >= 0) {
      if (shift > 40) return this.unscaled < 0n ? -MAX_INT64 - 1n : MAX_INT64; // saturate far out of range
      return this.unscaled * pow10(shift);
    }
    if (-shift > digits(this.unscaled)) return this.unscaled < 0n ? -1n : 1n;
    return divPow10RoundUp(this.unscaled, -shift);
  }

  /** Value(): the value rounded up (away from zero) to an integer. Exact below 2^53. */
  value(): number {
    return Number(this.scaledValueBig(0));
  }

  /** MilliValue(): ceil(q × 1000) away from zero. Exact below 2^53. */
  milliValue(): number {
    return Number(this.scaledValueBig(-3));
  }

  /** ScaledValue(scale) as a number. */
  scaledValue(scale: number): number {
    return Number(this.scaledValueBig(scale));
  }

  /**
   * RoundUp(scale): the value rounded up (away from zero) to a multiple of 10^scale, in the same
   * format. Returns `this` when that loses nothing (where Kubernetes' RoundUp returns true).
   */
  roundUp(scale: number): Quantity {
    if (this.exponent >= scale) return this;
    return new Quantity(this.scaledValueBig(scale), scale, this.format);
  }

  /** AsApproximateFloat64(). */
  asApproximateFloat64(): number {
    return Number(this.unscaled) * 10 ** this.exponent;
  }

  add(other: Quantity): Quantity {
    const e = Math.min(this.exponent, other.exponent);
    const a = this.unscaled * pow10(this.exponent - e);
    const b = other.unscaled * pow10(other.exponent - e);
    return new Quantity(a + b, e, this.isZero() ? other.format : this.format);
  }

  sub(other: Quantity): Quantity {
    return this.add(other.neg()).withFormat(this.isZero() ? other.format : this.format);
  }

  neg(): Quantity {
    return new Quantity(-this.unscaled, this.exponent, this.format);
  }

  /** Multiplies by an integer (Quantity.Mul). */
  mul(n: number | bigint): Quantity {
    return new Quantity(this.unscaled * BigInt(n), this.exponent, this.format);
  }

  withFormat(format: QuantityFormat): Quantity {
    return format === this.format ? this : new Quantity(this.unscaled, this.exponent, format);
  }

  /** The canonical string (Quantity.String()). */
  toString(): string {
    return (this.canonical ??= canonicalize(this));
  }

  toJSON(): string {
    return this.toString();
  }
}

function cmpDec(au: bigint, ae: number, bu: bigint, be: number): -1 | 0 | 1 {
  const as = au === 0n ? 0 : au < 0n ? -1 : 1;
  const bs = bu === 0n ? 0 : bu < 0n ? -1 : 1;
  if (as !== bs) return as < bs ? -1 : 1;
  if (as === 0) return 0;
  // Same sign, both non-zero: compare magnitudes by order of magnitude first (huge exponents).
  const am = digits(au) + ae;
  const bm = digits(bu) + be;
  if (am !== bm) return (am < bm ? -as : as) as -1 | 1;
  const e = Math.min(ae, be);
  const a = au * pow10(ae - e);
  const b = bu * pow10(be - e);
  return a === b ? 0 : a < b ? -1 : 1;
}

function canonicalize(q: Quantity): string {
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    // Below 1024 in magnitude, or not integral: printed as DecimalSI.
    if (q.exponent < 0 || cmpDec(abs(q.unscaled), q.exponent, 1024n, 0) < 0) format = 'DecimalSI';
    else {
      let v = q.unscaled * pow10(q.exponent);
      let k = 0;
      while ((v >= 1024n || v <= -1024n) && v % 1024n === 0n && k < 6) {
        v /= 1024n;
        k++;
      }
      return v.toString() + BIN_SUFFIXES[k];
    }
  }
  let u = q.unscaled;
  let e = q.exponent;
  const r = ((e % 3) + 3) % 3;
  if (r !== 0) {
    u *= pow10(r);
    e -= r;
  }
  const number = u.toString();
  if (format === 'DecimalExponent') return e === 0 ? number : `${number}e${e}`;
  const suffix = DEC_EXP_SUFFIX.get(e);
  return suffix !== undefined ? number + suffix : `${number}e${e}`;
}

interface Scanned {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** The scanner of resource.parseQuantityString (same acceptance, same split); an error message when it fails. */
function scanQuantity(str: string): Scanned | string {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (end > 0) {
    const c = str.charCodeAt(0);
    if (c === 45 /* - */) {
      positive = false;
      pos++;
    } else if (c === 43 /* + */) pos++;
  }
  // Leading zeros.
  while (pos < end && str.charCodeAt(pos) === 48) pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str.charCodeAt(i))) i++;
  let num = str.slice(pos, i);
  if (i >= end) return { positive, num: num === '' ? '0' : num, denom: '', suffix: '' };
  if (num === '') num = '0';
  pos = i;
  let denom = '';
  if (str.charCodeAt(pos) === 46 /* . */) {
    pos++;
    i = pos;
    while (i < end && isDigit(str.charCodeAt(i))) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, num, denom, suffix: '' };
    pos = i;
  }
  const suffixStart = pos;
  i = pos;
  while (i < end && 'eEinumkKMGTP'.includes(str[i]!)) i++;
  if (i >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
  pos = i;
  const c = str.charCodeAt(pos);
  if (c === 45 || c === 43) pos++;
  for (i = pos; i < end; i++) if (!isDigit(str.charCodeAt(i))) return ErrFormatWrong;
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

/** strconv.ParseInt(s, 10, 64) semantics (sign, digits only). */
function parseGoInt(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  if (!Number.isFinite(n) || Math.abs(n) > 9.223372036854775807e18) return undefined;
  return n;
}

/** resource.ParseQuantity, with the error as Kubernetes' message instead of a throw. */
function parseOrError(str: string): Quantity | string {
  if (str.length === 0) return ErrFormatWrong;
  if (str === '0') return ZERO_DECIMAL;
  const scanned = scanQuantity(str);
  if (typeof scanned === 'string') return scanned;
  const { positive, num, denom, suffix } = scanned;

  let base: 10 | 2;
  let exponent: number;
  let format: QuantityFormat;
  const dec = DEC_SUFFIX_EXP[suffix];
  const bin = dec === undefined ? BIN_SUFFIX_EXP[suffix] : undefined;
  if (dec !== undefined && Object.prototype.hasOwnProperty.call(DEC_SUFFIX_EXP, suffix)) {
    base = 10;
    exponent = dec;
    format = 'DecimalSI';
  } else if (bin !== undefined && Object.prototype.hasOwnProperty.call(BIN_SUFFIX_EXP, suffix)) {
    base = 2;
    exponent = bin;
    format = 'BinarySI';
  } else if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const parsed = parseGoInt(suffix.slice(1));
    // An exponent outside ±MaxInt32 is rejected (v1.26 truncated it to an unrelated int32).
    if (parsed === undefined || parsed > MAX_INT32 || parsed < -MAX_INT32) return ErrSuffix;
    base = 10;
    exponent = parsed;
    format = 'DecimalExponent';
  } else {
    return ErrSuffix;
  }

  let unscaled = BigInt(num + denom);
  if (!positive) unscaled = -unscaled;
  let exp = -denom.length;
  if (base === 10) exp += exponent;
  else unscaled *= 1n << BigInt(exponent);

  if (unscaled === 0n) return new Quantity(0n, 0, format);

  // Round up (away from zero) to nano precision.
  if (exp < -9) {
    const shift = -9 - exp;
    unscaled = shift > digits(unscaled) ? (unscaled < 0n ? -1n : 1n) : divPow10RoundUp(unscaled, shift);
    exp = -9;
  }
  if (format === 'BinarySI') {
    const mag = abs(unscaled);
    if (cmpDec(mag, exp, MAX_INT64, 0) > 0) {
      unscaled = unscaled < 0n ? -MAX_INT64 : MAX_INT64;
      exp = 0;
    } else if (cmpDec(mag, exp, 1n, 0) < 0) {
      // 0 < |value| < 1: DecimalSI (avoids rounding).
      format = 'DecimalSI';
    }
  }
  return new Quantity(unscaled, exp, format);
}

const ZERO_DECIMAL = new Quantity(0n, 0, 'DecimalSI');

// Quantities are immutable and the same few strings ("100m", "128Mi") come back in every object
// that decoding, defaulting, validation and the scheduler look at: each is parsed once. An entry
// is the Quantity or the error message of a string that is not one.
const parsed = new Map<string, Quantity | string>();
const PARSED_MAX = 4096;

function memoized(str: string): Quantity | string {
  let q = parsed.get(str);
  if (q === undefined) {
    q = parseOrError(str);
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(str, q);
  }
  return q;
}

/**
 * The quantity a JSON value holds (Quantity.UnmarshalJSON: surrounding spaces ignored), or
 * undefined when it is not one. Memoized: the result is shared, as every Quantity is immutable.
 */
export function parseQuantity(str: string): Quantity | undefined {
  const q = memoized(str.trim());
  return typeof q === 'string' ? undefined : q;
}

/** The canonical string of a quantity string (Quantity.String()); throws QuantityError when it does not parse. */
export function canonicalQuantity(str: string): string {
  const q = memoized(str);
  if (typeof q === 'string') throw new QuantityError(q);
  return q.toString();
}

/**
 * SetDefaults_ResourceList for one value: rounded up to milli precision. The input itself when
 * that changes nothing (or it does not parse), so a value keeps its spelling until it is canonicalized.
 */
export function roundUpToMilli(str: string): string {
  const q = parseQuantity(str);
  if (!q) return str;
  const rounded = q.roundUp(-3);
  return rounded === q ? str : rounded.toString();
}
