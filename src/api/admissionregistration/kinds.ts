// admissionregistration.k8s.io/v1: the webhook configurations and ValidatingAdmissionPolicy
// (with its binding), with Kubernetes' defaults (pkg/apis/admissionregistration/v1/defaults.go):
// failurePolicy Fail, matchPolicy Equivalent, empty namespace and object selectors,
// timeoutSeconds 10, reinvocationPolicy Never (mutating), rule scope "*", service port 443.
import type { KindVersion, KubeObject } from '../schema/kind.js';
import * as v1 from './v1.js';

const G = 'admissionregistration.k8s.io';

const isObj = (v: unknown): v is KubeObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** SetDefaults_ValidatingWebhook / SetDefaults_MutatingWebhook, then their rules' and service's. */
function defaultWebhook(hook: KubeObject, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  if (Array.isArray(hook.rules)) for (const rule of hook.rules) if (isObj(rule)) rule.scope ??= '*';
  const service = isObj(hook.clientConfig) ? hook.clientConfig.service : undefined;
  if (isObj(service)) service.port ??= 443;
}

/** SetDefaults_MatchResources, then the scope of its rules. */
function defaultMatchResources(match: unknown): void {
  if (!isObj(match)) return;
  match.matchPolicy ??= 'Equivalent';
  match.namespaceSelector ??= {};
  match.objectSelector ??= {};
  for (const rules of [match.resourceRules, match.excludeResourceRules]) if (Array.isArray(rules)) for (const rule of rules) if (isObj(rule)) rule.scope ??= '*';
}

/** SetObjectDefaults_ValidatingAdmissionPolicy: failurePolicy Fail and the match constraints. */
function defaultPolicy(obj: KubeObject): void {
  if (!isObj(obj.spec)) return;
  obj.spec.failurePolicy ??= 'Fail';
  defaultMatchResources(obj.spec.matchConstraints);
}

/** SetObjectDefaults_ValidatingAdmissionPolicyBinding: the match resources. */
function defaultBinding(obj: KubeObject): void {
  if (isObj(obj.spec)) defaultMatchResources(obj.spec.matchResources);
}

const webhookDefaults = (mutating: boolean) => (obj: KubeObject): void => {
  if (Array.isArray(obj.webhooks)) for (const hook of obj.webhooks) if (isObj(hook)) defaultWebhook(hook, mutating);
};

export const admissionregistrationKinds: readonly KindVersion[] = [
  {
    group: G, version: 'v1', kind: 'MutatingWebhookConfiguration', resource: 'mutatingwebhookconfigurations', singular: 'mutatingwebhookconfiguration',
    categories: ['api-extensions'], namespaced: false, type: v1.MutatingWebhookConfiguration, list: v1.MutatingWebhookConfigurationList, storage: true, defaults: webhookDefaults(true),
  },
  {
    group: G, version: 'v1', kind: 'ValidatingWebhookConfiguration', resource: 'validatingwebhookconfigurations', singular: 'validatingwebhookconfiguration',
    categories: ['api-extensions'], namespaced: false, type: v1.ValidatingWebhookConfiguration, list: v1.ValidatingWebhookConfigurationList, storage: true, defaults: webhookDefaults(false),
  },
  {
    group: G, version: 'v1', kind: 'ValidatingAdmissionPolicy', resource: 'validatingadmissionpolicies', singular: 'validatingadmissionpolicy',
    categories: ['api-extensions'], namespaced: false, type: v1.ValidatingAdmissionPolicy, list: v1.ValidatingAdmissionPolicyList, storage: true, defaults: defaultPolicy,
    subresources: { status: true },
  },
  {
    group: G, version: 'v1', kind: 'ValidatingAdmissionPolicyBinding', resource: 'validatingadmissionpolicybindings', singular: 'validatingadmissionpolicybinding',
    categories: ['api-extensions'], namespaced: false, type: v1.ValidatingAdmissionPolicyBinding, list: v1.ValidatingAdmissionPolicyBindingList, storage: true, defaults: defaultBinding,
  },
];
