// k8s.io/apiserver pkg/cel/library/quantity.go: quantity(), isQuantity() and the methods of
// Quantity values, on the project's resource.Quantity port.
import { Quantity, parseQuantity } from '../../../api/meta/quantity.js';
import { OpaqueValue } from './opaque.js';
import { fn, method, type K8sOverload } from './types.js';

export class CelQuantity extends OpaqueValue {
  readonly typeName = 'kubernetes.Quantity';
  constructor(readonly q: Quantity) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof CelQuantity && this.q.equals(other.q);
  }
}

const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

/** The quantity as an int64 when it is a whole number that fits (resource.Quantity AsInt64). */
function asInt64(q: Quantity): bigint | undefined {
  const v = q.scaledValueBig(0);
  if (!Quantity.fromValue(v).equals(q)) return undefined;
  return v >= MIN_INT64 && v <= MAX_INT64 ? v : undefined;
}

const qOf = (v: unknown) => (v instanceof CelQuantity ? v.q : undefined);
const operand = (v: unknown) => (v instanceof CelQuantity ? v.q : typeof v === 'bigint' ? Quantity.fromValue(v) : undefined);
const q = (t: unknown, f: (q: Quantity) => unknown) => { const x = qOf(t); return x && f(x); };

export const quantityLibrary: K8sOverload[] = [
  fn('quantity', ([s]) => {
    if (typeof s !== 'string') return undefined;
    return new CelQuantity(Quantity.parse(s));
  }),
  fn('isQuantity', ([s]) => (typeof s === 'string' ? parseQuantity(s) !== undefined : undefined)),
  method('sign', (t) => q(t, (x) => BigInt(x.sign()))),
  method('isGreaterThan', (t, [o]) => q(t, (x) => { const y = qOf(o); return y && x.cmp(y) > 0; })),
  method('isLessThan', (t, [o]) => q(t, (x) => { const y = qOf(o); return y && x.cmp(y) < 0; })),
  method('compareTo', (t, [o]) => q(t, (x) => { const y = qOf(o); return y && BigInt(x.cmp(y)); })),
  method('add', (t, [o]) => q(t, (x) => { const y = operand(o); return y && new CelQuantity(x.add(y)); })),
  method('sub', (t, [o]) => q(t, (x) => { const y = operand(o); return y && new CelQuantity(x.sub(y)); })),
  method('isInteger', (t) => q(t, (x) => asInt64(x) !== undefined)),
  method('asInteger', (t) => q(t, (x) => {
    const v = asInt64(x);
    if (v === undefined) throw new Error('cannot convert value to integer');
    return v;
  })),
  method('asApproximateFloat', (t) => q(t, (x) => x.asApproximateFloat64())),
];
