// apiextensions.k8s.io/v1 (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1): the
// CustomResourceDefinition. Field numbers are those of its generated.proto. A version's
// openAPIV3Schema (JSONSchemaProps, recursive, with union JSON forms) is kept as the JSON given
// (json-schema.ts types it); the schema machinery checks it (validation of the kind).
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields, variant } from '../schema/dsl.js';
import * as admissionregistration from '../admissionregistration/v1.js';

const G = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

// The same Go types as admissionregistration's, declared again in this package (their own names).
export const ServiceReference = variant(G + 'ServiceReference', admissionregistration.ServiceReference, {});

export const WebhookClientConfig = variant(G + 'WebhookClientConfig', admissionregistration.WebhookClientConfig, {
  add: { service: field(ServiceReference, 1, { pointer: true }) },
});

export const WebhookConversion = struct(G + 'WebhookConversion', {
  clientConfig: field(WebhookClientConfig, 2, { pointer: true }),
  conversionReviewVersions: field(listOf(t.string), 3, { omitempty: false, required: true, listType: 'atomic' }),
});

export const CustomResourceConversion = struct(G + 'CustomResourceConversion', {
  strategy: field(t.string, 1, { omitempty: false, required: true, enum: ['None', 'Webhook'] }),
  webhook: field(WebhookConversion, 2, { pointer: true }),
});

export const CustomResourceDefinitionNames = struct(G + 'CustomResourceDefinitionNames', {
  plural: field(t.string, 1, { omitempty: false, required: true }),
  singular: field(t.string, 2),
  shortNames: field(listOf(t.string), 3, { listType: 'atomic' }),
  kind: field(t.string, 4, { omitempty: false, required: true }),
  listKind: field(t.string, 5),
  categories: field(listOf(t.string), 6, { listType: 'atomic' }),
});

export const CustomResourceValidation = struct(G + 'CustomResourceValidation', {
  openAPIV3Schema: field(t.rawExtension, 1, { pointer: true }),
});

export const CustomResourceSubresourceStatus = struct(G + 'CustomResourceSubresourceStatus', {});

export const CustomResourceSubresourceScale = struct(G + 'CustomResourceSubresourceScale', {
  specReplicasPath: field(t.string, 1, { omitempty: false, required: true }),
  statusReplicasPath: field(t.string, 2, { omitempty: false, required: true }),
  labelSelectorPath: field(t.string, 3, { pointer: true }),
});

export const CustomResourceSubresources = struct(G + 'CustomResourceSubresources', {
  status: field(CustomResourceSubresourceStatus, 1, { pointer: true }),
  scale: field(CustomResourceSubresourceScale, 2, { pointer: true }),
});

export const CustomResourceColumnDefinition = struct(G + 'CustomResourceColumnDefinition', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  type: field(t.string, 2, { omitempty: false, required: true }),
  format: field(t.string, 3),
  description: field(t.string, 4),
  priority: field(t.int32, 5),
  jsonPath: field(t.string, 6, { omitempty: false, required: true }),
});

export const SelectableField = struct(G + 'SelectableField', {
  jsonPath: field(t.string, 1, { omitempty: false, required: true }),
});

export const CustomResourceDefinitionVersion = struct(G + 'CustomResourceDefinitionVersion', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  served: field(t.bool, 2, { omitempty: false, required: true }),
  storage: field(t.bool, 3, { omitempty: false, required: true }),
  deprecated: field(t.bool, 7),
  deprecationWarning: field(t.string, 8, { pointer: true }),
  schema: field(CustomResourceValidation, 4, { pointer: true }),
  subresources: field(CustomResourceSubresources, 5, { pointer: true }),
  additionalPrinterColumns: field(listOf(CustomResourceColumnDefinition), 6, { listType: 'atomic' }),
  selectableFields: field(listOf(SelectableField), 9, { listType: 'atomic' }),
});

export const CustomResourceDefinitionSpec = struct(G + 'CustomResourceDefinitionSpec', {
  group: field(t.string, 1, { omitempty: false, required: true }),
  names: field(CustomResourceDefinitionNames, 3, { omitempty: false, required: true }),
  scope: field(t.string, 4, { omitempty: false, required: true }),
  versions: field(listOf(CustomResourceDefinitionVersion), 7, { omitempty: false, required: true, listType: 'atomic' }),
  conversion: field(CustomResourceConversion, 9, { pointer: true }),
  preserveUnknownFields: field(t.bool, 10),
});

export const CustomResourceDefinitionCondition = struct(G + 'CustomResourceDefinitionCondition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 2, { omitempty: false, required: true }),
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const CustomResourceDefinitionStatus = struct(G + 'CustomResourceDefinitionStatus', {
  conditions: field(listOf(CustomResourceDefinitionCondition), 1, { omitempty: false, listType: 'map', listMapKeys: ['type'] }),
  acceptedNames: field(CustomResourceDefinitionNames, 2),
  storedVersions: field(listOf(t.string), 3, { omitempty: false, listType: 'atomic' }),
});

export const CustomResourceDefinition = struct(G + 'CustomResourceDefinition', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(CustomResourceDefinitionSpec, 2, { required: true }),
  status: field(CustomResourceDefinitionStatus, 3),
});

export const CustomResourceDefinitionList = struct(G + 'CustomResourceDefinitionList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(CustomResourceDefinition), 2, { omitempty: false, required: true }),
});
