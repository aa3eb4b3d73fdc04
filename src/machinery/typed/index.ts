// Typed operations of server-side apply on kubelite's schema: field sets, comparison, merge, prune.
export { compare, type Comparison } from './compare.js';
export { toFieldSet, TypedError } from './fieldset.js';
export { merge } from './merge.js';
export { prune } from './prune.js';
export { structNode, zeroObject, deepEqual, isObject, type TypedNode, type StructNode } from './schema.js';
export { crdTypedNode } from './crd.js';
export { setStructNode, DEDUCED, type AnyNode } from './schema.js';
