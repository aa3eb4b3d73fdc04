// admissionregistration.k8s.io/v1 (k8s.io/api/admissionregistration/v1): the webhook
// configurations and ValidatingAdmissionPolicy(Binding). Field numbers are those of
// admissionregistration/v1 generated.proto. RuleWithOperations embeds Rule inline (JSON flat,
// protobuf a nested message at field 2), and NamedRuleWithOperations embeds RuleWithOperations.
import { Condition, LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
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

export const NamedRuleWithOperations = struct(G + 'NamedRuleWithOperations', {
  resourceNames: field(listOf(t.string), 1, { listType: 'atomic' }),
  ...inline(RuleWithOperations, 2, 'ruleWithOperations'),
}, { structType: 'atomic' });

export const MatchResources = struct(G + 'MatchResources', {
  namespaceSelector: field(LabelSelector, 1, { pointer: true }),
  objectSelector: field(LabelSelector, 2, { pointer: true }),
  resourceRules: field(listOf(NamedRuleWithOperations), 3, { listType: 'atomic' }),
  excludeResourceRules: field(listOf(NamedRuleWithOperations), 4, { listType: 'atomic' }),
  matchPolicy: field(t.string, 7, { pointer: true }),
}, { structType: 'atomic' });

export const ParamKind = struct(G + 'ParamKind', {
  apiVersion: field(t.string, 1),
  kind: field(t.string, 2),
}, { structType: 'atomic' });

export const Validation = struct(G + 'Validation', {
  expression: field(t.string, 1, { omitempty: false, required: true }),
  message: field(t.string, 2),
  reason: field(t.string, 3, { pointer: true }),
  messageExpression: field(t.string, 4),
});

export const Variable = struct(G + 'Variable', {
  name: field(t.string, 1, { omitempty: false, required: true }),
  expression: field(t.string, 2, { omitempty: false, required: true }),
}, { structType: 'atomic' });

export const AuditAnnotation = struct(G + 'AuditAnnotation', {
  key: field(t.string, 1, { omitempty: false, required: true }),
  valueExpression: field(t.string, 2, { omitempty: false, required: true }),
});

export const ValidatingAdmissionPolicySpec = struct(G + 'ValidatingAdmissionPolicySpec', {
  paramKind: field(ParamKind, 1, { pointer: true }),
  matchConstraints: field(MatchResources, 2, { pointer: true }),
  validations: field(listOf(Validation), 3, { listType: 'atomic' }),
  failurePolicy: field(t.string, 4, { pointer: true }),
  auditAnnotations: field(listOf(AuditAnnotation), 5, { listType: 'atomic' }),
  matchConditions: matchConditionsAt(6),
  variables: field(listOf(Variable), 7, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] }),
});

export const ExpressionWarning = struct(G + 'ExpressionWarning', {
  fieldRef: field(t.string, 2, { omitempty: false, required: true }),
  warning: field(t.string, 3, { omitempty: false, required: true }),
});

export const TypeChecking = struct(G + 'TypeChecking', {
  expressionWarnings: field(listOf(ExpressionWarning), 1, { listType: 'atomic' }),
});

export const ValidatingAdmissionPolicyStatus = struct(G + 'ValidatingAdmissionPolicyStatus', {
  observedGeneration: field(t.int64, 1),
  typeChecking: field(TypeChecking, 2, { pointer: true }),
  conditions: field(listOf(Condition), 3, { listType: 'map', listMapKeys: ['type'] }),
});

export const ValidatingAdmissionPolicy = struct(G + 'ValidatingAdmissionPolicy', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ValidatingAdmissionPolicySpec, 2),
  status: field(ValidatingAdmissionPolicyStatus, 3),
});

export const ValidatingAdmissionPolicyList = struct(G + 'ValidatingAdmissionPolicyList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ValidatingAdmissionPolicy), 2, { omitempty: false, required: true }),
});

export const ParamRef = struct(G + 'ParamRef', {
  name: field(t.string, 1),
  namespace: field(t.string, 2),
  selector: field(LabelSelector, 3, { pointer: true }),
  parameterNotFoundAction: field(t.string, 4, { pointer: true }),
}, { structType: 'atomic' });

export const ValidatingAdmissionPolicyBindingSpec = struct(G + 'ValidatingAdmissionPolicyBindingSpec', {
  policyName: field(t.string, 1),
  paramRef: field(ParamRef, 2, { pointer: true }),
  matchResources: field(MatchResources, 3, { pointer: true }),
  validationActions: field(listOf(t.string), 4, { listType: 'set' }),
});

export const ValidatingAdmissionPolicyBinding = struct(G + 'ValidatingAdmissionPolicyBinding', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(ValidatingAdmissionPolicyBindingSpec, 2),
});

export const ValidatingAdmissionPolicyBindingList = struct(G + 'ValidatingAdmissionPolicyBindingList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(ValidatingAdmissionPolicyBinding), 2, { omitempty: false, required: true }),
});
