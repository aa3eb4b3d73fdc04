// cel-go's optional values as far as functions reach them (optional.of/none/ofNonZeroValue,
// hasValue, value, orValue, or): @bufbuild/cel's parser has no `.?` / `[?` syntax, so optional
// field selection is not available; the format library and optional oldSelf return these.
import { isCelList, isCelMap, type CelList, type CelMap } from '@bufbuild/cel';
import { celEquals } from '../values.js';
import { OpaqueValue } from './opaque.js';
import { fn, method, type K8sOverload } from './types.js';

export class Optional extends OpaqueValue {
  readonly typeName = 'optional_type';
  static readonly NONE = new Optional(false, undefined);
  constructor(readonly present: boolean, readonly value: unknown) {
    super();
  }
  static of(v: unknown): Optional {
    return new Optional(true, v);
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof Optional && other.present === this.present && (!this.present || celEquals(this.value, other.value));
  }
}

function isZero(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === 0n || v === '') return true;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isCelList(v)) return (v as CelList).size === 0;
  if (isCelMap(v)) return (v as CelMap).size === 0;
  return false;
}

export const optionalLibrary: K8sOverload[] = [
  fn('optional.of', ([v]) => Optional.of(v)),
  fn('optional.none', () => Optional.NONE),
  fn('optional.ofNonZeroValue', ([v]) => (isZero(v) ? Optional.NONE : Optional.of(v))),
  method('hasValue', (t) => (t instanceof Optional ? t.present : undefined)),
  method('value', (t) => {
    if (!(t instanceof Optional)) return undefined;
    if (!t.present) throw new Error('optional.none() dereference');
    return t.value;
  }),
  method('orValue', (t, [d]) => (t instanceof Optional ? (t.present ? t.value : d) : undefined)),
  method('or', (t, [o]) => (t instanceof Optional && o instanceof Optional ? (t.present ? t : o) : undefined)),
];
