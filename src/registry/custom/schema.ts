// The schema machinery of one custom resource version, compiled once from its openAPIV3Schema:
// structural pruning and defaulting (run when a body is decoded), and validation against the
// schema, its list types, embedded resources and CEL rules (run by the strategy).
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import type { KubeObject } from '../../api/schema/kind.js';
import { applyDefaults, compileSchema, prune, pruneNonNullableNulls, validateCustomResource, validateCustomResourceUpdate } from '../../machinery/structural/index.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { compileSchemaRules } from '../../machinery/cel/crd-rules.js';

export interface VersionSchema {
  readonly schema: JSONSchemaProps | undefined;
  /** Removes what the schema does not specify; the removed paths (`spec.foo`), for field validation. */
  prune(obj: KubeObject): string[];
  /** Sets the schema's defaults where values are absent (and drops nulls no field allows). */
  applyDefaults(obj: KubeObject): void;
  /** The errors of an object (and, on update, the transition rules against `old`). */
  validate(obj: KubeObject, old: KubeObject | undefined): FieldError[];
}

/** No schema (a version that preserves everything): nothing is pruned, defaulted or checked. */
const OPEN: VersionSchema = { schema: undefined, prune: () => [], applyDefaults: () => undefined, validate: () => [] };

export function versionSchema(schema: JSONSchemaProps | undefined): VersionSchema {
  if (schema === undefined) return OPEN;
  compileSchema(schema);
  const rules = compileSchemaRules(schema);
  const schemaErrors = (obj: KubeObject, old: KubeObject | undefined) => (old === undefined ? validateCustomResource(obj, schema) : validateCustomResourceUpdate(obj, old, schema));
  return {
    schema,
    prune: (obj) => prune(obj, schema, { isResourceRoot: true }),
    applyDefaults(obj) {
      applyDefaults(obj, schema);
      pruneNonNullableNulls(obj, schema);
    },
    // Updates ratchet as Kubernetes 1.33 does: what was already invalid and did not change is let be.
    validate(obj, old) {
      const errors = schemaErrors(obj, old);
      // Kubernetes' hasBlockingErr: rules are not run on values of the wrong type.
      if (errors.some((e) => e.type === 'FieldValueNotSupported' || e.type === 'FieldValueTypeInvalid')) {
        return [...errors, fieldError.invalid('<nil>', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
      }
      // A rule on the root reports under Kubernetes' nil path.
      return [...errors, ...rules(obj, old).map((e) => (e.field === '' ? { ...e, field: '<nil>' } : e))];
    },
  };
}
