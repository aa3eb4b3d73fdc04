// Go's %#v rendering of the few structured values Kubernetes puts in field errors (a label
// selector, an IntOrString, a service port, a taint, ...). field.Error dereferences a pointer
// before formatting, so these print as values (`v1.LabelSelector{...}`, not `&v1.LabelSelector{...}`).
// Struct renderers take the Go type name (`v1.LabelSelector` for types Kubernetes validates in
// their versioned form, `core.ServicePort` for internal ones) and the fields in Go order.
import type { FieldError, FieldErrorType } from './field-errors.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const goQuote = (s: string): string => JSON.stringify(s);

/** A Go string for %#v: quoted. */
export function goString(v: unknown): string {
  return goQuote(typeof v === 'string' ? v : '');
}

/** A Go integer for %#v (0 when absent). */
export function goInt(v: unknown): string {
  return typeof v === 'number' ? String(v) : '0';
}

export function goBool(v: unknown): string {
  return v === true ? 'true' : 'false';
}

/** map[string]string as %#v prints it (keys sorted; nil when absent). */
export function goStringMap(v: unknown): string {
  if (!isObj(v)) return 'map[string]string(nil)';
  const keys = Object.keys(v).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(String(v[k] ?? ''))}`).join(', ')}}`;
}

/** []string as %#v prints it (nil when absent). */
export function goStringSlice(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((x) => goQuote(String(x))).join(', ')}}`;
}

/** A nil or non-nil pointer field: `(*T)(nil)` or a placeholder address, as %#v prints pointers inside structs. */
export function goPointer(type: string, v: unknown): string {
  return v === undefined || v === null ? `(*${type})(nil)` : `(*${type})(0xc000000000)`;
}

export function goStruct(type: string, fields: readonly (readonly [string, string])[]): string {
  return `${type}{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

/** metav1.LabelSelector (%#v of the dereferenced pointer). */
export function goLabelSelector(sel: unknown): string {
  const s = isObj(sel) ? sel : {};
  const exprs = Array.isArray(s.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions
        .map((e) => {
          const r = isObj(e) ? e : {};
          return goStruct('v1.LabelSelectorRequirement', [
            ['Key', goString(r.key)],
            ['Operator', goString(r.operator)],
            ['Values', goStringSlice(r.values)],
          ]);
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return goStruct('v1.LabelSelector', [
    ['MatchLabels', goStringMap(s.matchLabels)],
    ['MatchExpressions', exprs],
  ]);
}

/** intstr.IntOrString (Type 0 = Int, 1 = String). */
export function goIntOrString(v: unknown): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${goInt(v)}, StrVal:""}`;
}

/** A field error whose bad value is already rendered in Go syntax. */
export function rawError(type: FieldErrorType, field: string, text: string, detail: string): FieldError {
  return { type, field, badValue: { kind: 'raw', text }, detail };
}

/** field.NotSupported with a Go-rendered value. */
export function notSupportedRaw(field: string, text: string, supported: readonly string[]): FieldError {
  return rawError('FieldValueNotSupported', field, text, supported.length > 0 ? `supported values: ${supported.map(goQuote).join(', ')}` : '');
}

/**
 * A metav1.Time or MicroTime as field errors print it (time.Time's String(): "2026-01-01
 * 00:00:00.000001 +0000 UTC", trailing zeros of the fraction dropped; the zero time when unset).
 */
export function goTimeString(v: unknown): string {
  const m = typeof v === 'string' ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(v) : null;
  if (!m) return '0001-01-01 00:00:00 +0000 UTC';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]} ${m[2]}${frac ? `.${frac}` : ''} +0000 UTC`;
}
