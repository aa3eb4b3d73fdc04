// flowcontrol.apiserver.k8s.io/v1 (k8s.io/api/flowcontrol/v1): FlowSchema and
// PriorityLevelConfiguration, API Priority and Fairness' configuration. Field numbers are those of
// flowcontrol/v1 generated.proto.
import { ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.flowcontrol.v1.';

export const PriorityLevelConfigurationReference = struct(G + 'PriorityLevelConfigurationReference', {
  name: field(t.string, 1, { omitempty: false, required: true }),
});

export const FlowDistinguisherMethod = struct(G + 'FlowDistinguisherMethod', {
  type: field(t.string, 1, { omitempty: false, required: true }),
});

export const UserSubject = struct(G + 'UserSubject', { name: field(t.string, 1, { omitempty: false, required: true }) });
export const GroupSubject = struct(G + 'GroupSubject', { name: field(t.string, 1, { omitempty: false, required: true }) });
export const ServiceAccountSubject = struct(G + 'ServiceAccountSubject', {
  namespace: field(t.string, 1, { omitempty: false, required: true }),
  name: field(t.string, 2, { omitempty: false, required: true }),
});

export const Subject = struct(G + 'Subject', {
  kind: field(t.string, 1, { omitempty: false, required: true }),
  user: field(UserSubject, 2, { pointer: true }),
  group: field(GroupSubject, 3, { pointer: true }),
  serviceAccount: field(ServiceAccountSubject, 4, { pointer: true }),
});

export const ResourcePolicyRule = struct(G + 'ResourcePolicyRule', {
  verbs: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'set' }),
  apiGroups: field(listOf(t.string), 2, { omitempty: false, required: true, listType: 'set' }),
  resources: field(listOf(t.string), 3, { omitempty: false, required: true, listType: 'set' }),
  clusterScope: field(t.bool, 4),
  namespaces: field(listOf(t.string), 5, { omitempty: false, listType: 'set' }),
});

export const NonResourcePolicyRule = struct(G + 'NonResourcePolicyRule', {
  verbs: field(listOf(t.string), 1, { omitempty: false, required: true, listType: 'set' }),
  nonResourceURLs: field(listOf(t.string), 6, { omitempty: false, required: true, listType: 'set' }),
});

export const PolicyRulesWithSubjects = struct(G + 'PolicyRulesWithSubjects', {
  subjects: field(listOf(Subject), 1, { omitempty: false, required: true, listType: 'atomic' }),
  resourceRules: field(listOf(ResourcePolicyRule), 2, { listType: 'atomic' }),
  nonResourceRules: field(listOf(NonResourcePolicyRule), 3, { listType: 'atomic' }),
});

export const FlowSchemaSpec = struct(G + 'FlowSchemaSpec', {
  priorityLevelConfiguration: field(PriorityLevelConfigurationReference, 1, { omitempty: false, required: true }),
  matchingPrecedence: field(t.int32, 2, { omitempty: false }),
  distinguisherMethod: field(FlowDistinguisherMethod, 3, { pointer: true }),
  rules: field(listOf(PolicyRulesWithSubjects), 4, { listType: 'atomic' }),
});

export const FlowSchemaCondition = struct(G + 'FlowSchemaCondition', {
  type: field(t.string, 1),
  status: field(t.string, 2),
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const FlowSchemaStatus = struct(G + 'FlowSchemaStatus', {
  conditions: field(listOf(FlowSchemaCondition), 1, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
});

export const FlowSchema = struct(G + 'FlowSchema', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(FlowSchemaSpec, 2),
  status: field(FlowSchemaStatus, 3),
});

export const FlowSchemaList = struct(G + 'FlowSchemaList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(FlowSchema), 2, { omitempty: false, required: true }),
});

export const QueuingConfiguration = struct(G + 'QueuingConfiguration', {
  queues: field(t.int32, 1, { omitempty: false }),
  handSize: field(t.int32, 2, { omitempty: false }),
  queueLengthLimit: field(t.int32, 3, { omitempty: false }),
});

export const LimitResponse = struct(G + 'LimitResponse', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  queuing: field(QueuingConfiguration, 2, { pointer: true }),
});

export const LimitedPriorityLevelConfiguration = struct(G + 'LimitedPriorityLevelConfiguration', {
  nominalConcurrencyShares: field(t.int32, 1, { pointer: true, omitempty: false }),
  limitResponse: field(LimitResponse, 2),
  lendablePercent: field(t.int32, 3, { pointer: true }),
  borrowingLimitPercent: field(t.int32, 4, { pointer: true }),
});

export const ExemptPriorityLevelConfiguration = struct(G + 'ExemptPriorityLevelConfiguration', {
  nominalConcurrencyShares: field(t.int32, 1, { pointer: true }),
  lendablePercent: field(t.int32, 2, { pointer: true }),
});

export const PriorityLevelConfigurationSpec = struct(G + 'PriorityLevelConfigurationSpec', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  limited: field(LimitedPriorityLevelConfiguration, 2, { pointer: true }),
  exempt: field(ExemptPriorityLevelConfiguration, 3, { pointer: true }),
});

export const PriorityLevelConfigurationCondition = struct(G + 'PriorityLevelConfigurationCondition', {
  type: field(t.string, 1),
  status: field(t.string, 2),
  lastTransitionTime: field(t.time, 3),
  reason: field(t.string, 4),
  message: field(t.string, 5),
});

export const PriorityLevelConfigurationStatus = struct(G + 'PriorityLevelConfigurationStatus', {
  conditions: field(listOf(PriorityLevelConfigurationCondition), 1, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
});

export const PriorityLevelConfiguration = struct(G + 'PriorityLevelConfiguration', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(PriorityLevelConfigurationSpec, 2),
  status: field(PriorityLevelConfigurationStatus, 3),
});

export const PriorityLevelConfigurationList = struct(G + 'PriorityLevelConfigurationList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PriorityLevelConfiguration), 2, { omitempty: false, required: true }),
});
