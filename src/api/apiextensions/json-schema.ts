// The JSON form of apiextensions.k8s.io/v1 JSONSchemaProps: the OpenAPI v3 schema a
// CustomResourceDefinition version carries (spec.versions[].schema.openAPIV3Schema), as JSON
// holds it. Structural checks, validation, pruning, defaulting, CEL rules and the custom
// resources' OpenAPI all read this one type.

/** A CEL rule of `x-kubernetes-validations` (ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** FieldValueErrorReason: FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired, FieldValueDuplicate. */
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  /** Any JSON value. */
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** JSONSchemaPropsOrArray: one schema, or (not structural) a list of them. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  /** JSONSchemaPropsOrBool. */
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  /** JSONSchemaDependencies: each a schema or a list of property names. */
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  /** atomic | set | map */
  'x-kubernetes-list-type'?: string;
  /** granular | atomic */
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}
