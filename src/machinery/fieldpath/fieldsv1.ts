// FieldsV1, the JSON form of a field set in managedFields, byte for byte as Kubernetes writes it:
// each level an object whose keys are serialized path elements in structured-merge-diff's order,
// a member with no children as `{}`, and a member that also has children as an object that starts
// with `".": {}`.
import { parseElement } from './element.js';
import { FieldSet } from './set.js';

export type FieldsV1 = Record<string, unknown>;

/** The FieldsV1 object of a set (its keys are inserted in the order Kubernetes writes them). */
export function setToFields(set: FieldSet): FieldsV1 {
  return level(set, false);
}

function level(set: FieldSet, member: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  if (member) out['.'] = {};
  for (const e of set.sorted()) {
    if (e.child && !e.child.isEmpty()) out[e.pe.id] = level(e.child, e.member);
    else if (e.member) out[e.pe.id] = {};
  }
  return out;
}

/** Decodes a FieldsV1 object; throws an Error naming the bad key on malformed input. */
export function fieldsToSet(fields: unknown): FieldSet {
  const set = new FieldSet();
  if (fields === undefined || fields === null) return set;
  readLevel(fields, set);
  return set;
}

function readLevel(fields: unknown, into: FieldSet): boolean {
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new Error('expected an object in FieldsV1');
  let self = false;
  for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
    if (k === '.') {
      self = true;
      continue;
    }
    const pe = parseElement(k);
    const child = new FieldSet();
    const member = readLevel(v, child);
    const hasChildren = child.entries.size > 0;
    // `{}` is a member; an object with "." is a member with children; otherwise only children.
    into.entries.set(pe.id, { pe, member: member || !hasChildren, child: hasChildren ? child : undefined });
  }
  return self;
}

/** The serialized FieldsV1 text of a set (for comparisons and benchmarks). */
export function setToFieldsJson(set: FieldSet): string {
  return JSON.stringify(setToFields(set));
}
