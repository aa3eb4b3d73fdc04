// go-cmp's printing of one value (report_reflect.go): its Go syntax under the reporter's options
// (which side, how verbose, whether type names are written), shortened by the verbosity limits.
import { parseQuantity } from '../../../api/meta/quantity.js';
import type { Obj } from '../../../machinery/validation/common.js';
import { f, fieldValue, formatGoString, I, isNil, isNilOf, isZeroValue, mapKey, resolve, struct, type GoType } from './go-types.js';
import { appendEllipsis, ELLIPSIS, line, NIL, wrap, type Rec, type Text } from './text.js';

export type Mode = '' | '=' | '-' | '+';
export type TypeMode = 'auto' | 'emit' | 'elide';

export interface Opts {
  mode: Mode;
  verbosity: number;
  limit: boolean;
  typeMode: TypeMode;
}

export const withVerbosity = (o: Opts, v: number): Opts => ({ ...o, verbosity: v, limit: true });
export const verb = (o: Opts) => Math.max(0, Math.min(16, o.verbosity));

function formatString(o: Opts, prefix: string, s: string): Text {
  let maxLen = s.length;
  if (o.limit) maxLen = (1 << verb(o)) << 5;
  if (s.length > maxLen + ELLIPSIS.length) return line(`${prefix}${formatGoString(s.slice(0, maxLen))}${ELLIPSIS}`);
  return line(prefix + formatGoString(s));
}

function typeName(t: GoType): string {
  if (t.k === 'slice' || t.k === 'map' || t.k === 'struct') return t.name;
  if (t.k === 'ptr') return `*${typeName(t.e)}`;
  return t.k === 'str' ? 'string' : t.k === 'int' ? 'int64' : t.k === 'bool' ? 'bool' : 'resource.Quantity';
}

/** FormatType: the type name around composite values, unless elided (or the node is identical). */
export function formatType(o: Opts, t: GoType, s: Text): Text {
  if (o.typeMode === 'elide') return s;
  if (o.typeMode === 'auto') {
    if (t.k !== 'struct' && t.k !== 'slice' && t.k !== 'map') return s;
    if (s.kind === 'line' && s.s === 'nil') return s;
    if (o.mode === '=') return s;
  }
  const name = typeName(t);
  if (s.kind === 'wrap' && s.prefix.startsWith('{') && s.suffix.endsWith('}')) return wrap(name, s, '');
  return wrap(`${name}(`, s, ')');
}

/** A Quantity as go-cmp prints the struct (no String method on a value): {i: ..., s: ..., Format: ...}. */
function quantityParts(v: unknown): { value: string; scale: number; s: string; format: string } | undefined {
  const q = parseQuantity(String(v));
  if (!q) return undefined;
  const s = q.toString();
  const m = /^(-?\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|e-?\d+)?$/.exec(s);
  const dec: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, GoType: 12, P: 15, E: 18 };
  const bin: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
  if (!m) return { value: String(q.unscaled), scale: q.exponent, s, format: q.format };
  const mant = BigInt(m[1]!);
  const suffix = m[2] ?? '';
  if (suffix in bin) return { value: String(mant << BigInt(bin[suffix]!)), scale: 0, s, format: q.format };
  if (suffix.startsWith('e')) return { value: String(mant), scale: Number(suffix.slice(1)), s, format: q.format };
  return { value: String(mant), scale: dec[suffix] ?? 0, s, format: q.format };
}

export function formatValue(o: Opts, t0: GoType, v: unknown): Text {
  const t = resolve(t0, v);
  let out: Text;
  let skipType = false;
  switch (t.k) {
    case 'bool':
      return line(String(v === true));
    case 'int':
      return line(String(typeof v === 'number' ? v : 0));
    case 'str':
      return formatString(o, '', typeof v === 'string' ? v : '');
    case 'qty': {
      const parts = quantityParts(v);
      const recs: Rec[] = [];
      let maxLen = 4;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      const fields: [string, () => Text, boolean][] = [
        ['i', () => formatValue({ ...inner, typeMode: 'auto' }, struct('resource.int64Amount', [f('value', 'value', I), f('scale', 'scale', I)]), { value: Number(parts?.value ?? 0), scale: parts?.scale ?? 0 }), parts !== undefined && parts.value !== '0'],
        ['s', () => formatString(inner, '', parts?.s ?? ''), parts !== undefined],
        ['Format', () => formatString(inner, '', parts?.format ?? ''), parts !== undefined],
      ];
      for (const [name, fn, present] of fields) {
        if (!present) continue;
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: name, value: fn() });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'struct': {
      const recs: Rec[] = [];
      let maxLen = t.fields.length;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      for (const fd of t.fields) {
        const fv = fieldValue(v, fd);
        if (isZeroValue(fd.t, fv)) continue;
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: fd.go, value: formatValue({ ...inner, typeMode: 'auto' }, fd.t, fv) });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'slice': {
      if (isNilOf(t, v)) return NIL;
      const xs = v as unknown[];
      let maxLen = xs.length;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      const recs: Rec[] = [];
      for (const e of xs) {
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: '', value: formatValue({ ...inner, typeMode: 'elide' }, t.e, e) });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'map': {
      if (isNilOf(t, v)) return NIL;
      const m = v as Obj;
      const keys = Object.keys(m).sort();
      let maxLen = keys.length;
      let inner = o;
      if (o.limit) {
        maxLen = ((1 << verb(o)) >> 1) << 2;
        inner = { ...o, verbosity: o.verbosity - 1 };
      }
      const recs: Rec[] = [];
      for (const k of keys) {
        if (recs.length === maxLen) {
          appendEllipsis(recs);
          break;
        }
        recs.push({ diff: '', key: mapKey(t, k), value: formatValue({ ...inner, typeMode: 'elide' }, t.e, m[k]) });
      }
      out = wrap('{', { kind: 'list', recs }, '}');
      break;
    }
    case 'ptr': {
      if (isNil(v)) return NIL;
      skipType = true;
      out = wrap('&', formatValue(o, t.e, v), '');
      break;
    }
    default:
      return line(JSON.stringify(v) ?? 'nil');
  }
  return skipType ? out : formatType(o, t, out);
}
