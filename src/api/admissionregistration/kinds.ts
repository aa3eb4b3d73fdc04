// admissionregistration.k8s.io/v1: the webhook configurations, with Kubernetes' defaults
// (pkg/apis/admissionregistration/v1/defaults.go): failurePolicy Fail, matchPolicy Equivalent,
// empty namespace and object selectors, timeoutSeconds 10, reinvocationPolicy Never (mutating),
// rule scope "*", service port 443.
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
];
