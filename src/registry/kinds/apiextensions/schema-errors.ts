// What the schema machinery finds wrong in one version's openAPIV3Schema: structural rules,
// JSONSchemaProps rules, defaults (machinery/structural).
import type { JSONSchemaProps } from '../../../api/apiextensions/json-schema.js';
import { validateCustomResourceSchema } from '../../../machinery/structural/index.js';
import type { SchemaErrors } from './validation.js';

export const crdSchemaErrors: SchemaErrors = (schema: JSONSchemaProps, path, opts) => validateCustomResourceSchema(schema, path, opts);
