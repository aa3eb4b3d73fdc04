// Stored bytes → what the watch cache serves: the object with metadata.resourceVersion set,
// serialized once as Kubernetes' JSON, plus the labels and fields selectors filter on. The decoded
// object is not kept: ten thousand pods as bytes are a fraction of their size as JS objects.
// (Writes through this API server take a faster way to the same bytes: fast-path/.)
import { metadataOf, nameOf, namespaceOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { encodeJson } from '../machinery/codec/json.js';
import type { CachedObject, Materialize } from '../storage/cacher/types.js';
import { metaOf, withResourceVersion } from './meta.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Decodes a stored value and stamps it with its revision. */
export function decodeStored(value: Uint8Array, modRevision: number): KubeObject {
  const obj = JSON.parse(decoder.decode(value)) as KubeObject;
  obj.metadata = withResourceVersion(metaOf(obj), String(modRevision));
  return obj;
}

/** Selectable fields of an object (metadata.name and metadata.namespace at least). */
export type FieldsOf = (obj: KubeObject) => Record<string, string>;

export const metadataFields: FieldsOf = (obj) => ({ 'metadata.name': nameOf(obj), 'metadata.namespace': namespaceOf(obj) });

/** The labels of a metadata record (the fast path reads them from the record it holds). */
export function metadataLabels(m: Record<string, unknown>): Record<string, string> {
  return (typeof m.labels === 'object' && m.labels !== null ? m.labels : {}) as Record<string, string>;
}

export function cachedFromObject(key: string, obj: KubeObject, revision: number, fieldsOf: FieldsOf): CachedObject {
  return {
    key,
    namespace: namespaceOf(obj),
    name: nameOf(obj),
    revision,
    json: encoder.encode(encodeJson(obj)),
    labels: metadataLabels(metadataOf(obj)),
    fields: fieldsOf(obj),
  };
}

/** The watch cache's materialize: each object decoded from its stored bytes and encoded as served. */
export function plainMaterializer(fieldsOf: FieldsOf): Materialize {
  return (key, value, modRevision) => cachedFromObject(key, decodeStored(value, modRevision), modRevision, fieldsOf);
}
