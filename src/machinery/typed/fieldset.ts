// typed.ToFieldSet for an applied configuration: the fields it sets, which become its manager's
// Apply entry. Validates the configuration against the schema as structured-merge-diff does
// (undeclared fields, wrong kinds of value, list items without their keys, duplicate items) and
// reports the first problems with their paths, as `.spec.foo: field not declared in schema`.
import { fieldElement, pathToString, type PathElement } from '../fieldpath/element.js';
import { FieldSet } from '../fieldpath/set.js';
import { ItemKeyError, itemElement } from './items.js';
import { childNode, isObject, shaped, type LeafNode, type TypedNode } from './schema.js';

export class TypedError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join(', '));
  }
}

/** The field set of `value`; throws TypedError when it does not fit the schema. */
export function toFieldSet(value: unknown, node: TypedNode): FieldSet {
  const set = new FieldSet();
  const errors: string[] = [];
  walk(set, errors, node, value, []);
  if (errors.length > 0) throw new TypedError(errors);
  return set;
}

function scalarError(node: LeafNode, v: unknown): string | undefined {
  if (v === null) return undefined;
  switch (node.scalar) {
    case 'string':
    case 'duration':
    case 'time':
    case 'microTime':
    case 'bytes':
      return typeof v === 'string' ? undefined : `expected string, got ${describe(v)}`;
    case 'bool':
      return typeof v === 'boolean' ? undefined : `expected boolean, got ${describe(v)}`;
    case 'int32':
    case 'int64':
    case 'double':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${describe(v)}`;
    case 'quantity':
    case 'intOrString':
      return typeof v === 'number' || typeof v === 'string' ? undefined : `expected numeric (int or float) or string, got ${describe(v)}`;
    default:
      return undefined;
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'list';
  if (isObject(v)) return 'map';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'int64' : 'float64') : typeof v === 'boolean' ? 'bool' : typeof v;
}

function fail(errors: string[], path: PathElement[], message: string): void {
  errors.push(path.length > 0 ? `${pathToString(path)}: ${message}` : message);
}

function walk(set: FieldSet, errors: string[], declared: TypedNode, v: unknown, path: PathElement[]): void {
  const node = shaped(declared, v);
  switch (node.kind) {
    case 'leaf': {
      const e = scalarError(node, v);
      if (e) fail(errors, path, e);
      set.insert(path);
      return;
    }
    case 'struct':
    case 'map': {
      if (v !== null && !isObject(v)) return fail(errors, path, `expected map, got ${describe(v)}`);
      if (node.atomic) {
        set.insert(path);
        return;
      }
      if (v === null) return;
      for (const k in v) {
        const child = childNode(node, k);
        path.push(fieldElement(k));
        if (!child) {
          fail(errors, path, 'field not declared in schema');
        } else {
          const cv = v[k];
          walk(set, errors, child, cv, path);
          // Map entries, nulls and empty objects are owned themselves (struct fields with content are not).
          if (cv === null || (isObject(cv) && Object.keys(cv).length === 0) || node.kind === 'map' || !node.fields.has(k)) set.insert(path);
        }
        path.pop();
      }
      return;
    }
    case 'list': {
      if (v !== null && !Array.isArray(v)) return fail(errors, path, `expected list, got ${describe(v)}`);
      if (node.relationship === 'atomic') {
        set.insert(path);
        return;
      }
      if (v === null) return;
      const seen = new Set<string>();
      for (let i = 0; i < v.length; i++) {
        let pe: PathElement;
        try {
          pe = itemElement(node, v[i], i, true);
        } catch (err) {
          if (!(err instanceof ItemKeyError)) throw err;
          fail(errors, path, err.message);
          continue;
        }
        if (seen.has(pe.id)) {
          path.push(pe);
          fail(errors, path.slice(0, -1), `duplicate entries for key ${pathToString([pe]).slice(0)}`);
          path.pop();
          continue;
        }
        seen.add(pe.id);
        path.push(pe);
        walk(set, errors, node.elem, v[i], path);
        set.insert(path);
        path.pop();
      }
      return;
    }
  }
}
