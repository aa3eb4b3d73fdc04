// Structural schemas of CustomResourceDefinitions: schema validation, pruning, defaulting and
// validation of custom resources. The schema is compiled once (compileSchema, cached per schema
// object) so that the per-write functions below only walk the compiled tree.
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import type { FieldError } from '../validation/field-errors.js';
import { compileSchema } from './compile.js';
import { defaultNode, pruneNullsNode } from './defaults.js';
import { pruneNode } from './prune.js';
import { validateEmbeddedResources, validateListTypes } from './resource.js';
import { validateSchema } from './schema-validation.js';
import { validateNode } from './validate.js';
import { rebase } from './messages.js';

export { compileSchema, schemaAt, type SchemaNode } from './compile.js';

/** Every error of Kubernetes' CRD validation about one version's openAPIV3Schema, under `path`:
 * the root rules (status subresource, nullable), structural-schema rules, defaults, JSONSchemaProps rules. */
export function validateCustomResourceSchema(schema: JSONSchemaProps, path: string, opts: { statusSubresource?: boolean }): FieldError[] {
  return validateSchema(schema, path, opts.statusSubresource === true);
}

/** Removes in place every field `schema` does not specify; returns the removed paths, sorted, as
 * Kubernetes reports unknown fields (`spec.foo`, `spec.list[0].bar`). */
export function prune(obj: Record<string, unknown>, schema: JSONSchemaProps, opts: { isResourceRoot: boolean }): string[] {
  const removed: string[] = [];
  pruneNode(obj, compileSchema(schema), opts.isResourceRoot || schema['x-kubernetes-embedded-resource'] === true, '', removed);
  return removed.sort();
}

/** Applies `default`s in place (absent fields, and nulls of non-nullable fields). */
export function applyDefaults(obj: unknown, schema: JSONSchemaProps): void {
  defaultNode(obj, compileSchema(schema));
}

/** Drops the nulls of non-nullable fields without a default, as Kubernetes does on decode after defaulting. */
export function pruneNonNullableNulls(obj: unknown, schema: JSONSchemaProps): void {
  pruneNullsNode(obj, compileSchema(schema));
}

/** Errors of a part of a custom resource validated on its own, as Kubernetes validates `status` on
 * status writes: `schema` is the part's schema (schemaAt(root, 'status')), errors sit under `basePath`
 * while messages name fields from the part (`status.num: Invalid value: 15: num in body ...`). */
export function validateCustomResourceValue(value: unknown, schema: JSONSchemaProps, basePath: string): FieldError[] {
  const out: FieldError[] = [];
  validateNode(compileSchema(schema), value, '', out);
  return rebase(out, basePath);
}

/** Errors of a custom resource against its version's schema, in Kubernetes' order: the OpenAPI
 * schema validation, then embedded resources' apiVersion/kind, then list-type set/map uniqueness. */
export function validateCustomResource(obj: Record<string, unknown>, schema: JSONSchemaProps): FieldError[] {
  const node = compileSchema(schema);
  const out: FieldError[] = [];
  validateNode(node, obj, '', out);
  validateEmbeddedResources(obj, node, '', true, out);
  validateListTypes(obj, node, '', out);
  return out;
}

/** Errors of an update of a custom resource, as Kubernetes 1.33 reports them: schema validation with
 * ratcheting (errors of values unchanged from `old` are dropped), embedded resources, and list-type
 * uniqueness only when the old object had none of those errors. */
export function validateCustomResourceUpdate(obj: Record<string, unknown>, old: Record<string, unknown>, schema: JSONSchemaProps): FieldError[] {
  const node = compileSchema(schema);
  const out: FieldError[] = [];
  validateNode(node, obj, '', out, { value: old });
  validateEmbeddedResources(obj, node, '', true, out);
  const oldListErrs: FieldError[] = [];
  validateListTypes(old, node, '', oldListErrs);
  if (oldListErrs.length === 0) validateListTypes(obj, node, '', out);
  return out;
}
