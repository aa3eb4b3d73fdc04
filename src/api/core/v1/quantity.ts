// resource.Quantity arithmetic for core/v1 defaulting: exact parse, Kubernetes' canonical
// formatting, RoundUp to milli scale (SetDefaults_ResourceList), sum and max (pod-level resource
// defaults). Values are exact: n × 10^e with a BigInt n.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface ParsedQuantity {
  /** value = n × 10^e */
  n: bigint;
  e: number;
  format: QuantityFormat;
}

const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const quantityRe = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

// Parsed quantities are immutable and the same few strings ("100m", "128Mi") come back in every
// pod that defaulting, validation and canonicalization look at: parse each once.
const parsed = new Map<string, Readonly<ParsedQuantity> | null>();
const MAX_PARSED = 4096;

/** Parses a quantity string; undefined when it is not one. The result is shared: do not modify it. */
export function parseQuantity(s: string): ParsedQuantity | undefined {
  let q = parsed.get(s);
  if (q === undefined) {
    q = parseUncached(s) ?? null;
    if (q !== null) Object.freeze(q);
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(s, q);
  }
  return q ?? undefined;
}

function parseUncached(s: string): ParsedQuantity | undefined {
  const m = quantityRe.exec(s.trim());
  if (!m) return undefined;
  const [, sign, num, suffix = ''] = m as unknown as [string, string, string, string | undefined];
  const [intPart, fracPart = ''] = num.split('.') as [string, string | undefined];
  let n = BigInt((intPart || '0') + fracPart);
  let e = -fracPart.length;
  let format: QuantityFormat = 'DecimalSI';
  if (suffix in binarySuffixes) {
    n *= 1n << BigInt(10 * binarySuffixes[suffix]!);
    format = 'BinarySI';
  } else if (suffix in decimalSuffixes) {
    e += decimalSuffixes[suffix]!;
  } else {
    e += Number(suffix.slice(1));
    format = 'DecimalExponent';
  }
  if (sign === '-') n = -n;
  return normalize({ n, e, format });
}

function normalize(q: ParsedQuantity): ParsedQuantity {
  let { n, e } = q;
  if (n === 0n) return { n: 0n, e: 0, format: q.format };
  while (n % 10n === 0n) {
    n /= 10n;
    e += 1;
  }
  return { n, e, format: q.format };
}

function scaleTo(q: ParsedQuantity, e: number): bigint {
  return e <= q.e ? q.n * 10n ** BigInt(q.e - e) : q.n / 10n ** BigInt(e - q.e);
}

/** -1, 0, 1 as a < b, a = b, a > b. */
export function compareQuantities(a: ParsedQuantity, b: ParsedQuantity): number {
  const e = Math.min(a.e, b.e);
  const x = scaleTo(a, e);
  const y = scaleTo(b, e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** a + b, in a's format (as Quantity.Add keeps the receiver's format). */
export function addQuantities(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  const e = Math.min(a.e, b.e);
  return normalize({ n: scaleTo(a, e) + scaleTo(b, e), e, format: a.format });
}

/** Kubernetes' canonical string for a quantity (Quantity.String on a value without a cached form). */
export function formatQuantity(q: ParsedQuantity): string {
  const { n, e } = normalize(q);
  if (n === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const abs = n < 0n ? -n : n;
    const isInteger = e >= 0;
    const small = isInteger ? abs * 10n ** BigInt(e) < 1024n : true;
    if (small || !isInteger) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    let v = n * 10n ** BigInt(e);
    let k = 0;
    while (k < 6 && v % 1024n === 0n) {
      v /= 1024n;
      k += 1;
    }
    return `${v}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][k]}`;
  }
  // Mantissa with an exponent that is a multiple of 3 (floor).
  let exp = e;
  let mant = n;
  const r = ((exp % 3) + 3) % 3;
  if (r !== 0) {
    mant *= 10n ** BigInt(r);
    exp -= r;
  }
  if (format === 'DecimalExponent') return exp === 0 ? `${mant}` : `${mant}e${exp}`;
  const suffix = Object.entries(decimalSuffixes).find(([, v]) => v === exp)?.[0];
  return suffix !== undefined ? `${mant}${suffix}` : `${mant}e${exp}`;
}

/** Quantity.RoundUp(scale): the smallest value ≥ q (away from zero for negatives) with e ≥ scale. */
export function roundUp(q: ParsedQuantity, scale: number): { q: ParsedQuantity; exact: boolean } {
  if (q.e >= scale) return { q, exact: true };
  const div = 10n ** BigInt(scale - q.e);
  let m = q.n / div;
  if (m * div !== q.n) m += q.n > 0n ? 1n : -1n;
  return { q: normalize({ n: m, e: scale, format: q.format }), exact: false };
}

/** SetDefaults_ResourceList for one value: rounds up to milli scale; returns the input when unchanged. */
export function roundUpToMilli(s: string): string {
  const q = parseQuantity(s);
  if (!q) return s;
  const r = roundUp(q, -3);
  return r.exact ? s : formatQuantity(r.q);
}

/** The canonical form of a quantity string (the input when it does not parse). */
export function canonicalQuantity(s: string): string {
  const q = parseQuantity(s);
  return q ? formatQuantity(q) : s;
}
