// What the field manager's operations share: the kinds' facts (schema node, empty object, the
// fields each subresource never owns), the writer (Actor), and finding what a write changed.
// Fields that are the system's (name, uid, resourceVersion, ...) are never owned, and each
// subresource owns only its part of the object (the main resource never owns status, /status
// owns only status and metadata), like the strategies' reset fields.
import type { StructType } from '../../api/schema/dsl.js';
import { fieldElement, type Path } from '../fieldpath/element.js';
import { FieldSet } from '../fieldpath/set.js';
import { compare } from '../typed/compare.js';
import { isObject, structNode, zeroObject, type StructNode } from '../typed/schema.js';
import { encodeManagedFields, type Managed } from './entries.js';

export type Obj = Record<string, unknown>;

/** Who writes: the request's field manager, the group/version it speaks, the subresource. */
export interface Actor {
  manager: string;
  apiVersion: string;
  /** '' for the main resource; 'status', 'scale', ... */
  subresource: string;
  now: number;
}

/** What the field manager needs to know about a kind (built once per kind). */
export interface KindFields {
  readonly type: StructType;
  readonly node: StructNode;
  readonly zero: Obj;
  readonly hasStatus: boolean;
  /** Reset fields (the strategy's): what the main resource and /status never own. */
  readonly ignoredMain: FieldSet | undefined;
  readonly ignoredStatus: FieldSet;
  /** What comparisons skip: the system's fields and the reset fields, per subresource. */
  readonly excludeMain: FieldSet;
  readonly excludeStatus: FieldSet;
  readonly excludeOther: FieldSet;
}

/** The system's fields, never owned by a manager (stripMetaManager), besides `metadata` itself. */
const SYSTEM_FIELDS: Path[] = [
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => [
    fieldElement('metadata'),
    fieldElement(n),
  ]),
];

/** stripMetaManager's set: the system's fields and `metadata` itself. */
export const STRIP = FieldSet.of(...SYSTEM_FIELDS, [fieldElement('metadata')]);

const kinds = new WeakMap<StructType, KindFields>();

export function kindFields(type: StructType, hasStatus: boolean): KindFields {
  let k = kinds.get(type);
  if (!k) {
    const others = Object.keys(type.fields).filter((f) => !['metadata', 'status', 'apiVersion', 'kind'].includes(f));
    const ignoredMain = hasStatus ? FieldSet.of([fieldElement('status')]) : undefined;
    const ignoredStatus = FieldSet.of(...others.map((f) => [fieldElement(f)]));
    const system = FieldSet.of(...SYSTEM_FIELDS);
    k = {
      type,
      node: structNode(type),
      zero: zeroObject(type),
      hasStatus,
      ignoredMain,
      ignoredStatus,
      excludeMain: ignoredMain ? system.union(ignoredMain) : system,
      excludeStatus: system.union(ignoredStatus),
      excludeOther: system,
    };
    kinds.set(type, k);
  }
  return k;
}

export function ignoredFor(kind: KindFields, subresource: string): FieldSet | undefined {
  return subresource === 'status' ? kind.ignoredStatus : subresource === '' ? kind.ignoredMain : undefined;
}

function excludeFor(kind: KindFields, subresource: string): FieldSet {
  return subresource === 'status' ? kind.excludeStatus : subresource === '' ? kind.excludeMain : kind.excludeOther;
}

const METADATA = fieldElement('metadata');

/** The fields a write changed (added or modified) and removed, less what no manager can own. */
export function changesOf(old: Obj, next: Obj, kind: KindFields, subresource: string): { changed: FieldSet; removed: FieldSet } {
  const c = withoutManagedFields(old, () => compare(old, next, kind.node, { exclude: excludeFor(kind, subresource), unionChanged: true }));
  // `metadata` itself is the system's too (it appears when the old object had none).
  const m = c.added.entry(METADATA);
  if (m) {
    if (m.child) m.member = false;
    else c.added.remove(METADATA);
  }
  return { changed: c.added, removed: c.removed };
}

export function metaOf(obj: Obj): Obj {
  if (!isObject(obj.metadata)) obj.metadata = {};
  return obj.metadata as Obj;
}

/** Runs `fn` with metadata.managedFields taken off `obj` (comparisons must not see it), then puts it back. */
export function withoutManagedFields<T>(obj: Obj, fn: () => T): T {
  const m = isObject(obj.metadata) ? obj.metadata : undefined;
  if (!m || !('managedFields' in m)) return fn();
  const saved = m.managedFields;
  delete m.managedFields;
  try {
    return fn();
  } finally {
    m.managedFields = saved;
  }
}

export function encodeInto(obj: Obj, managed: Managed): void {
  const entries = encodeManagedFields(managed);
  const m = metaOf(obj);
  if (entries) m.managedFields = entries;
  else delete m.managedFields;
}
