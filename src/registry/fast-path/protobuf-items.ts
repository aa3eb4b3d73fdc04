// Protobuf list items of cached objects, encoded once per cached object (lazily: only objects
// someone lists in protobuf pay for it, and the bytes are dropped with the object).
import type { CachedObject } from '../../storage/cacher/types.js';
import { partsOf, type JsonParts } from '../../storage/cacher/json-parts.js';
import { isSharedFieldsJson } from './prepared-writes.js';
import { ownLayout, Template } from './template-chunks.js';

const protobufItems = new WeakMap<CachedObject, JsonParts>();

/** The protobuf item of `o`, made by `encode` the first time it is asked for. */
export function keptProtobufItem(o: CachedObject, encode: (o: CachedObject) => Buffer): JsonParts {
  let item = protobufItems.get(o);
  if (item === undefined) {
    item = withoutShared(encode(o), o.parts);
    protobufItems.set(o, item);
  }
  return item;
}

/**
 * A protobuf item, kept as long as its object, as parts: the byte strings it shares with the
 * object's JSON parts (the JSON of a template's FieldsV1 is also the `raw` of its protobuf
 * FieldsV1) are inserted, not copied, and the rest is in a buffer of its own — not a slice of
 * Node's shared 8 KB pool, where an item under 4 KB would keep a whole pool chunk alive.
 */
function withoutShared(encoded: Buffer, json: JsonParts | undefined): JsonParts {
  const offsets: number[] = [];
  const inserts: Uint8Array[] = [];
  const cuts: Array<[from: number, to: number]> = [];
  let from = 0;
  let own = 0;
  for (const insert of json?.inserts ?? []) {
    // Only a FieldsV1's JSON is also protobuf bytes (a FieldsV1's `raw`); the other inserts — the
    // resourceVersion, a template's JSON — are not worth looking for.
    if (!isSharedFieldsJson(insert)) continue;
    const at = encoded.indexOf(insert, from);
    if (at === -1) continue;
    own += at - from;
    cuts.push([from, at]);
    offsets.push(own);
    inserts.push(insert);
    from = at + insert.byteLength;
  }
  cuts.push([from, encoded.length]);
  own += encoded.length - from;
  // Items of one template (the same shared FieldsV1) differ in a few places, as their JSON does:
  // an item holds what differs from the template's first item (template-chunks.ts).
  const base = Buffer.allocUnsafe(own);
  let pos = 0;
  for (const [a, b] of cuts) pos += encoded.copy(base, pos, a, b);
  const layout = ownLayout(inserts.length > 0 ? protobufTemplateOf(inserts[0]!) : undefined, base, offsets, inserts);
  return partsOf(layout.base, layout.offsets, layout.inserts);
}

/** The template of protobuf items sharing a FieldsV1 (kept while those bytes are). */
const protobufTemplates = new WeakMap<Uint8Array, Template>();

function protobufTemplateOf(fields: Uint8Array): Template {
  let t = protobufTemplates.get(fields);
  if (t === undefined) protobufTemplates.set(fields, (t = new Template()));
  return t;
}
