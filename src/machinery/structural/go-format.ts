// Go's formatting of the numbers kube-openapi puts in messages (%v of an int64 or a float64).
import { goFloat } from '../patch/gofmt.js';

export { goFloat };

/** %v of a decoded JSON number: integral numbers are int64 after Kubernetes' decoding, the rest float64. */
export const goNumber = (v: number): string => (Number.isInteger(v) ? String(v) : goFloat(v));

/** %#v of a decoded JSON value (map[string]interface{} keys sorted, as fmt prints maps). */
export function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  const o = v as Record<string, unknown>;
  const entries = Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${goSyntax(o[k])}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}

/** A field error's bad value as Kubernetes prints it: %q for strings, %v for numbers and bools, %#v otherwise. */
export function goBadValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  return goSyntax(v);
}
