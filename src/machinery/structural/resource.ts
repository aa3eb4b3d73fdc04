// The checks Kubernetes runs on a custom resource after schema validation: x-kubernetes-list-type
// set/map uniqueness (pkg/apiserver/schema/listtype) and the apiVersion, kind and metadata of
// x-kubernetes-embedded-resource objects (pkg/apiserver/schema/objectmeta). Paths are field paths.
import { fieldError, type FieldError } from '../validation/field-errors.js';
import { isDNS1035Label, isValidPathSegmentName } from '../validation/names.js';
import { validateObjectMeta } from '../validation/object-meta.js';
import type { ObjectMeta } from '../../api/types.js';
import type { SchemaNode } from './compile.js';
import { goBadValue, goSyntax } from './go-format.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const child = (path: string, k: string): string => (path === '' ? k : `${path}.${k}`);

/** The schema of key `k` and its field path: a property is a child (`a.b`), a map entry a key (`a[b]`). */
function childOf(node: SchemaNode, k: string, path: string): [SchemaNode | undefined, string] {
  const prop = node.properties?.get(k);
  if (prop !== undefined) return [prop, child(path, k)];
  if (typeof node.additional === 'object') return [node.additional, `${path}[${k}]`];
  return [undefined, ''];
}

/** The indices of second occurrences (reported once per value); objects and arrays compare by their
 * JSON with sorted keys, as Kubernetes compares their json.Marshal output. */
function duplicates(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const key = typeof v === 'object' && v !== null ? `o${goSyntax(v)}` : `s${typeof v}:${String(v)}`;
    const times = seen.get(key) ?? 0;
    if (times === 1) out.push(i);
    seen.set(key, times + 1);
  }
  return out;
}

function listMap(node: SchemaNode, list: unknown[], path: string, out: FieldError[]): void {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && !isObject(x)) return void out.push(fieldError.invalid(`${path}[${i}]`, x, 'must be an object for an array of list-type map'));
  }
  if (list.length <= 1) return;
  const keyFields = node.schema['x-kubernetes-list-map-keys'] ?? [];
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (f in x) key[f] = x[f];
    return key;
  });
  for (const i of duplicates(keys)) out.push({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, badValue: { kind: 'raw', text: goSyntax(keys[i]!) }, detail: '' });
}

export function validateListTypes(x: unknown, node: SchemaNode | undefined, path: string, out: FieldError[]): void {
  if (node === undefined) return;
  if (Array.isArray(x)) {
    const lt = node.schema['x-kubernetes-list-type'];
    if (lt === 'set') for (const i of duplicates(x)) out.push({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, badValue: { kind: 'raw', text: goBadValue(x[i]) }, detail: '' });
    else if (lt === 'map') listMap(node, x, path, out);
    if (node.items) for (let i = 0; i < x.length; i++) validateListTypes(x[i], node.items, `${path}[${i}]`, out);
  } else if (isObject(x)) {
    for (const k of Object.keys(x)) {
      const [c, p] = childOf(node, k, path);
      validateListTypes(x[k], c, p, out);
    }
  }
}

/** apiVersion, kind and metadata of one embedded resource (objectmeta's validateEmbeddedResource). */
export function validateEmbedded(x: Record<string, unknown>, path: string, out: FieldError[]): void {
  if (!('apiVersion' in x)) out.push(fieldError.required(child(path, 'apiVersion'), 'must not be empty'));
  if (!('kind' in x)) out.push(fieldError.required(child(path, 'kind'), 'must not be empty'));
  const apiVersion = x.apiVersion;
  if ('apiVersion' in x) {
    const p = child(path, 'apiVersion');
    if (typeof apiVersion !== 'string') out.push(fieldError.invalid(p, apiVersion, 'must be a string'));
    else if (apiVersion === '') out.push(fieldError.invalid(p, apiVersion, 'must not be empty'));
    else if (apiVersion.split('/').length > 2) out.push(fieldError.invalid(p, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  }
  const kind = x.kind;
  if ('kind' in x) {
    const p = child(path, 'kind');
    if (typeof kind !== 'string') out.push(fieldError.invalid(p, kind, 'must be a string'));
    else if (kind === '') out.push(fieldError.invalid(p, kind, 'must not be empty'));
    else {
      const errs = isDNS1035Label(kind.toLowerCase());
      if (errs.length > 0) out.push(fieldError.invalid(p, kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
    }
  }
  if (isObject(x.metadata)) {
    // Kubernetes validates embedded metadata with a stand-in name when none is set, path-segment names,
    // and a namespace only where one is given.
    const meta = { ...x.metadata } as ObjectMeta;
    if (!meta.name) meta.name = 'fakename';
    out.push(...validateObjectMeta({ metadata: meta }, { namespaced: Boolean(meta.namespace), nameValidator: pathSegmentName, path: child(path, 'metadata') }));
  }
}

/** path.ValidatePathSegmentName: a prefix may not hold '/' or '%'; a name may also not be '.' or '..'. */
function pathSegmentName(name: string, prefix: boolean): string[] {
  return prefix ? isValidPathSegmentName(name).filter((m) => m.startsWith('may not contain')) : isValidPathSegmentName(name);
}

/** apiVersion and kind of every embedded resource below the root (the root's are the API server's). */
export function validateEmbeddedResources(x: unknown, node: SchemaNode | undefined, path: string, isRoot: boolean, out: FieldError[]): void {
  if (node === undefined) return;
  if (Array.isArray(x)) {
    if (node.items) for (let i = 0; i < x.length; i++) validateEmbeddedResources(x[i], node.items, `${path}[${i}]`, false, out);
    return;
  }
  if (!isObject(x)) return;
  if (node.embedded && !isRoot) validateEmbedded(x, path, out);
  for (const k of Object.keys(x)) {
    const [c, p] = childOf(node, k, path);
    validateEmbeddedResources(x[k], c, p, false, out);
  }
}
