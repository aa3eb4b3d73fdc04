// What the schema machinery finds wrong in one version's openAPIV3Schema.
import type { SchemaErrors } from './validation.js';

export const crdSchemaErrors: SchemaErrors = () => [];
