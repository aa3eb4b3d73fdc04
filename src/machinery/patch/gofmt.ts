// Go's fmt verbs applied to decoded JSON values, so that error messages read exactly as
// kube-apiserver writes them. A decoded JSON value in Go (apimachinery's util/json, which keeps
// integers as int64) is one of: nil, bool, string, int64, float64, []interface{},
// map[string]interface{}. Integral JS numbers stand for int64, the others for float64.

function isGoInt(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

/** reflect.TypeOf(v).String(), or undefined for nil (Go's nil reflect.Type). */
export function goTypeName(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return isGoInt(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** `%s` of a reflect.Type: the type name, or `%!s(<nil>)` for a nil type. */
export function goTypeNameS(v: unknown): string {
  return goTypeName(v) ?? '%!s(<nil>)';
}

/** Go's %v of a float64 (strconv 'g' with the shortest precision: %e form when the decimal exponent is < -4 or >= 6, as in `1e+06`). */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  // Plain decimal form with the same (shortest) digits.
  const neg = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  let out: string;
  if (exp >= 0) {
    out = digits.length > exp + 1 ? `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}` : digits.padEnd(exp + 1, '0');
  } else {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  return neg ? `-${out}` : out;
}

function goNumber(n: number): string {
  if (isGoInt(n)) return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
  return goFloat(n);
}

function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Go's `%v` of a decoded JSON value (maps print with sorted keys, as fmt does). */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return goNumber(v);
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${sortedKeys(o).map((k) => `${k}:${goV(o[k])}`).join(' ')}]`;
}

/** Go's `%s` of a decoded JSON value: non-strings print as `%!s(type=value)`. */
export function goS(v: unknown): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return `%!s(bool=${v})`;
  if (typeof v === 'number') return `%!s(${goTypeName(v)}=${goNumber(v)})`;
  if (Array.isArray(v)) return `[${v.map(goS).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${sortedKeys(o).map((k) => `${k}:${goS(o[k])}`).join(' ')}]`;
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's strconv.Quote (the `%q` verb) of a string. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    // A lone surrogate cannot come out of Go's JSON decoder: it decodes it as U+FFFD.
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    const c = String.fromCodePoint(cp);
    switch (cp) {
      case 0x22: out += '\\"'; continue;
      case 0x5c: out += '\\\\'; continue;
      case 0x07: out += '\\a'; continue;
      case 0x08: out += '\\b'; continue;
      case 0x0c: out += '\\f'; continue;
      case 0x0a: out += '\\n'; continue;
      case 0x0d: out += '\\r'; continue;
      case 0x09: out += '\\t'; continue;
      case 0x0b: out += '\\v'; continue;
    }
    if (cp < 0x80) {
      out += cp < 0x20 || cp === 0x7f ? `\\x${cp.toString(16).padStart(2, '0')}` : c;
    } else if (printable.test(c)) {
      out += c;
    } else if (cp < 0x10000) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else {
      out += `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return out + '"';
}
