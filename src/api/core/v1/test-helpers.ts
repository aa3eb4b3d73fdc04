// Test support for the core/v1 declarations: schema walkers (reachable structs, declaration
// checks, undeclared JSON keys), an emulation of Go's JSON encoder driven by the pointer/omitempty
// facts, and access to the golden vectors. Used by *.test.ts here; not imported by product code.
import { readFileSync } from 'node:fs';
import type { Field, StructType, Type } from '../../schema/dsl.js';
import { canonicalQuantity } from './quantity.js';

export const vectors = new URL('../../../../../../shared/testdata/objects/', import.meta.url);
export const readVector = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(name, vectors), 'utf8')) as Record<string, unknown>;

/** Every struct reachable from the given roots. */
export function reachableStructs(...roots: StructType[]): Map<string, StructType> {
  const seen = new Map<string, StructType>();
  const visit = (type: Type): void => {
    if (type.kind === 'list' || type.kind === 'map') return visit(type.of);
    if (type.kind !== 'struct' || seen.has(type.name)) return;
    seen.set(type.name, type);
    for (const f of Object.values(type.fields)) visit(f.type);
  };
  roots.forEach(visit);
  return seen;
}

/** Structural errors of one struct's declaration (tags, list metadata). */
export function declarationErrors(s: StructType): string[] {
  const errors: string[] = [];
  const direct = new Map<number, string>();
  const embedded = new Map<string, Map<number, string>>();
  for (const [key, f] of Object.entries(s.fields)) {
    const where = `${s.name}.${key}`;
    const group = f.embedded ? (embedded.get(`${f.embedded.tag}`) ?? new Map<number, string>()) : direct;
    if (f.embedded) embedded.set(`${f.embedded.tag}`, group);
    if (f.tag !== 0 && group.has(f.tag)) errors.push(`${where}: tag ${f.tag} also used by ${group.get(f.tag)}`);
    group.set(f.tag, key);
    const elem = f.type.kind === 'list' ? f.type.of : undefined;
    // (meta/v1 LabelSelectorRequirement.key carries patch tags on a string, as in Go: only lists count.)
    if (f.patchMergeKey !== undefined && f.type.kind === 'list') {
      if (elem?.kind !== 'struct') errors.push(`${where}: patchMergeKey on a list that is not of structs`);
      else if (!(f.patchMergeKey in elem.fields)) errors.push(`${where}: patchMergeKey ${f.patchMergeKey} is not a field of ${elem.name}`);
      if (!f.patchStrategy?.includes('merge')) errors.push(`${where}: patchMergeKey without a merge patchStrategy`);
    }
    if (f.listType === 'map') {
      if (elem?.kind !== 'struct' || !f.listMapKeys?.length) errors.push(`${where}: listType=map needs struct elements and listMapKeys`);
      else for (const k of f.listMapKeys) if (!(k in elem.fields)) errors.push(`${where}: listMapKey ${k} is not a field of ${elem.name}`);
    }
    if (f.listType !== undefined && f.type.kind !== 'list') errors.push(`${where}: listType on a non-list`);
    if (f.mapType !== undefined && f.type.kind !== 'map') errors.push(`${where}: mapType on a non-map`);
  }
  for (const tag of embedded.keys()) if (direct.has(Number(tag))) errors.push(`${s.name}: embedded tag ${tag} is also a field's`);
  return errors;
}

/** Keys (and scalar kinds) of a JSON value that its schema type does not declare, as paths. */
export function undeclared(type: Type, value: unknown, path = '$'): string[] {
  if (value === null || value === undefined) return [];
  switch (type.kind) {
    case 'list':
      return Array.isArray(value) ? value.flatMap((v, i) => undeclared(type.of, v, `${path}[${i}]`)) : [`${path}: not a list`];
    case 'map':
      return typeof value === 'object' && !Array.isArray(value)
        ? Object.entries(value).flatMap(([k, v]) => undeclared(type.of, v, `${path}[${JSON.stringify(k)}]`))
        : [`${path}: not a map`];
    case 'struct':
      if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object (${type.name})`];
      return Object.entries(value).flatMap(([k, v]) => {
        const f = type.fields[k];
        return f ? undeclared(f.type, v, `${path}.${k}`) : [`${path}.${k}: not a field of ${type.name}`];
      });
    case 'scalar': {
      const ok: Record<string, (v: unknown) => boolean> = {
        string: (v) => typeof v === 'string',
        bool: (v) => typeof v === 'boolean',
        int32: (v) => Number.isInteger(v),
        int64: (v) => Number.isInteger(v),
        double: (v) => typeof v === 'number',
        quantity: (v) => typeof v === 'string' || typeof v === 'number',
        intOrString: (v) => typeof v === 'string' || Number.isInteger(v),
        time: (v) => typeof v === 'string',
        microTime: (v) => typeof v === 'string',
        bytes: (v) => typeof v === 'string',
        duration: (v) => typeof v === 'string',
        fieldsV1: (v) => typeof v === 'object',
        rawExtension: () => true,
      };
      return ok[type.name]!(value) ? [] : [`${path}: ${JSON.stringify(value)} is not a ${type.name}`];
    }
  }
}

/**
 * What Go's JSON encoder makes of a value decoded into the Go type: non-pointer structs always
 * written, zero non-pointer scalars dropped under omitempty and written otherwise, nil pointers
 * and slices `null` without omitempty, zero Time `null`, zero Quantity "0", quantities canonical.
 * Unknown keys are kept (so a comparison still sees them).
 */
export function goJson(type: Type, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  switch (type.kind) {
    case 'list':
      return Array.isArray(value) ? value.map((v) => goJson(type.of, v)) : value;
    case 'map':
      return typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, goJson(type.of, v)])) : value;
    case 'scalar':
      return type.name === 'quantity' && typeof value === 'string' ? canonicalQuantity(value) : value;
    case 'struct': {
      const src = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(src)) if (!(k in type.fields)) out[k] = v;
      for (const [key, f] of Object.entries(type.fields)) {
        if (f.tag === 0 && (key === 'kind' || key === 'apiVersion')) {
          if (src[key] !== undefined) out[key] = src[key];
          continue;
        }
        const r = goJsonField(f, src[key]);
        if (r !== undefined) out[key] = r;
      }
      return out;
    }
  }
}

function isZeroScalar(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function goJsonField(f: Field, v: unknown): unknown {
  const t = f.type;
  const absent = v === undefined || v === null;
  if (t.kind === 'list' || t.kind === 'map') {
    if (absent) return f.omitempty ? undefined : null;
    const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v as object).length === 0;
    if (empty && f.omitempty) return undefined;
    return goJson(t, v);
  }
  if (f.pointer) {
    if (absent) return f.omitempty ? undefined : null;
    return goJson(t, v);
  }
  // Non-pointer values.
  if (t.kind === 'struct') return goJson(t, absent ? {} : v);
  if (t.kind === 'scalar') {
    if (t.name === 'time' || t.name === 'microTime') return absent ? null : v;
    if (t.name === 'quantity') return absent ? '0' : goJson(t, v);
    if (t.name === 'intOrString') return absent ? 0 : v;
    if (t.name === 'fieldsV1' || t.name === 'rawExtension') return absent ? (f.omitempty ? undefined : null) : v;
    const zero = t.name === 'string' || t.name === 'bytes' || t.name === 'duration' ? '' : t.name === 'bool' ? false : 0;
    if (absent || isZeroScalar(v)) return f.omitempty ? undefined : zero;
    return v;
  }
  return v;
}

