// admissionregistration.k8s.io/v1 (k8s.io/api/admissionregistration/v1): the webhook
// configurations. Field numbers are those of admissionregistration/v1 generated.proto.
// RuleWithOperations embeds Rule inline (JSON flat, protobuf a nested message at field 2).
import { LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, inline, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.admissionregistration.v1.';

export const Rule = struct(G + 'Rule', {
  apiGroups: field(listOf(t.string), 1, { listType: 'atomic' }),
  apiVersions: field(listOf(t.string), 2, { listType: 'atomic' }),
  resources: field(listOf(t.string), 3, { listType: 'atomic' }),
  scope: field(t.string, 4, { pointer: true }),
});

export const RuleWithOperations = struct(G + 'RuleWithOperations', {
  operations: field(listOf(t.string), 1, { listType: 'atomic' }),
  ...inline(Rule, 2, 'rule'),
});

export const ServiceReference = struct(G + 'ServiceReference', {
  namespace: field(t.string, 1, { omitempty: false, required: true }),
  name: field(t.string, 2, { omitempty: false, required: true }),
  path: field(t.string, 3, { pointer: true }),
  port: field(t.int32, 4, { pointer: true }),
});

export const WebhookClientConfig = struct(G + 'WebhookClientConfig', {
  url: field(t.string, 3, { pointer: true }),
  service: field(ServiceReference, 1, { pointer: true }),
  caBundle: field(t.bytes, 2),
});

export const MatchCondition = struct(G + 'MatchCondition', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  expression: field(t.string, 2, { omitempty: false, required: true }),
});

const matchConditionsAt = (tag: number) => field(listOf(MatchCondition), tag, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] });

/** The fields both webhooks have before objectSelector, and between it and what only one has. */
const webhookHead = {
  name: field(t.string, 1, { omitempty: false, required: true }),
  clientConfig: field(WebhookClientConfig, 2, { omitempty: false, required: true }),
  rules: field(listOf(RuleWithOperations), 3, { listType: 'atomic' }),
  failurePolicy: field(t.string, 4, { pointer: true }),
  matchPolicy: field(t.string, 9, { pointer: true }),
  namespaceSelector: field(LabelSelector, 5, { pointer: true }),
};
const webhookMiddle = {
  /** No omitempty: a nil pointer is written as null. */
  sideEffects: field(t.string, 6, { pointer: true, omitempty: false, required: true }),
  timeoutSeconds: field(t.int32, 7, { pointer: true }),
  admissionReviewVersions: field(listOf(t.string), 8, { omitempty: false, required: true, listType: 'atomic' }),
};

export const ValidatingWebhook = struct(G + 'ValidatingWebhook', {
  ...webhookHead,
  objectSelector: field(LabelSelector, 10, { pointer: true }),
  ...webhookMiddle,
  matchConditions: matchConditionsAt(11),
});

export const MutatingWebhook = struct(G + 'MutatingWebhook', {
  ...webhookHead,
  objectSelector: field(LabelSelector, 11, { pointer: true }),
  ...webhookMiddle,
  reinvocationPolicy: field(t.string, 10, { pointer: true }),
  matchConditions: matchConditionsAt(12),
});

const webhooksOf = <T extends typeof ValidatingWebhook | typeof MutatingWebhook>(hook: T) =>
  field(listOf(hook), 2, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] });

export const ValidatingWebhookConfiguration = struct(G + 'ValidatingWebhookConfiguration', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  webhooks: webhooksOf(ValidatingWebhook),
});

export const ValidatingWebhookConfigurationList = struct(G + 'ValidatingWebhookConfigurationList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ValidatingWebhookConfiguration), 2, { omitempty: false, required: true }),
});

export const MutatingWebhookConfiguration = struct(G + 'MutatingWebhookConfiguration', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  webhooks: webhooksOf(MutatingWebhook),
});

export const MutatingWebhookConfigurationList = struct(G + 'MutatingWebhookConfigurationList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(MutatingWebhookConfiguration), 2, { omitempty: false, required: true }),
});
