// What the schema machinery finds wrong in one version's openAPIV3Schema: structural rules,
// JSONSchemaProps rules, defaults (machinery/structural), then its CEL rules (machinery/cel).
import type { JSONSchemaProps } from '../../../api/apiextensions/json-schema.js';
import { validateCustomResourceSchema } from '../../../machinery/structural/index.js';
import { validateSchemaRules } from '../../../machinery/cel/crd-rules.js';
import type { SchemaErrors } from './validation.js';

export const crdSchemaErrors: SchemaErrors = (schema: JSONSchemaProps, path, opts) => {
  const errors = validateCustomResourceSchema(schema, path, opts);
  // The rules are compiled against the structural schema: only once it is one.
  return errors.length > 0 ? errors : validateSchemaRules(schema, path);
};
