// Patch machinery for the API server's PATCH handler: JSON patch, JSON merge patch, strategic
// merge patch, and the Content-Type that picks one. Server-side apply is not here.

export { PatchError, type PatchErrorReason } from './errors.js';
export { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS, DEFAULT_MAX_COPY_BYTES, type JsonPatchOptions, type JsonPatchOperation } from './json-patch.js';
export { applyMergePatch, errBadJSONPatch, type MergePatchOptions } from './merge-patch.js';
export { strategicMergePatch, type StrategicMergePatchOptions } from './strategic.js';
export { PatchContentTypes, patchTypeFromContentType, patchMediaTypes, type PatchType, type PatchTypeOptions } from './content-type.js';
export { DEFAULT_MAX_DEPTH } from './json-util.js';

import type { StructType } from '../../api/schema/dsl.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { strategicMergePatch } from './strategic.js';
import type { PatchType } from './content-type.js';

/**
 * Applies a decoded patch body of type `type` (not 'apply') to `original`, an object of the kind
 * whose schema is `schema`, and returns the patched document. Inputs are never mutated.
 */
export function applyPatch(type: Exclude<PatchType, 'apply'>, original: object, patch: unknown, schema: StructType): unknown {
  switch (type) {
    case 'json':
      return applyJsonPatch(original, patch);
    case 'merge':
      return applyMergePatch(original, patch);
    case 'strategic':
      return strategicMergePatch(original, patch, schema);
  }
}
