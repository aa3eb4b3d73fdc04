// The API server's admission chain, built from the enabled plugin names over the registry (the
// lookups the plugins need read the watch cache, then storage).
import type { KubeObject } from '../../api/schema/kind.js';
import type { MutatingWebhookConfiguration, PersistentVolume, PriorityClass, RuntimeClass, StorageClass, ValidatingWebhookConfiguration } from '../../api/types.js';
import type { Registry } from '../../registry/registry.js';
import { registryObjectGetter } from '../auth/serviceaccount-token-lookup.js';
import { alwaysAllow } from '../auth/always-allow.js';
import type { Authorizer } from '../auth/types.js';
import { AdmissionChain, type AdmissionPluginName } from './chain.js';
import { LimitRanger } from './limit-ranger.js';
import { namespaceObjects } from './namespace-objects.js';
import { CertificateApproval, CertificateSigning, CertificateSubjectRestriction } from './certificates.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { registryNamespacePhases } from './namespace-phases.js';
import { DefaultStorageClass } from './default-storage-class.js';
import { DefaultTolerationSeconds } from './default-toleration-seconds.js';
import { DefaultIngressClass } from './default-ingress-class.js';
import { registryIngressClasses } from './ingress-classes.js';
import { NodeRestriction } from './node-restriction.js';
import { PriorityAdmission } from './priority.js';
import { PersistentVolumeClaimResize } from './pvc-resize.js';
import { registryQuotaAccess } from './quota-access.js';
import { ResourceQuotaAdmission } from './resource-quota.js';
import { registryClusterObjects } from './cluster-objects.js';
import { RuntimeClassAdmission } from './runtime-class.js';
import { ServiceAccountAdmission, type ServiceAccountAdmissionOptions } from './service-account.js';
import { registryStorageClasses } from './storage-classes.js';
import { StorageObjectInUseProtection } from './storage-object-in-use-protection.js';
import type { AdmissionPlugin } from './types.js';
import { MutatingAdmissionWebhook, ValidatingAdmissionWebhook } from './webhooks/plugin.js';
import { registryServiceResolver } from './webhooks/services.js';
import { celPolicyCompiler } from './policy/cel.js';
import { ValidatingAdmissionPolicyPlugin } from './policy/plugin.js';
import { registryDispatchContext, registryPolicySources, type RegistryPolicyOptions } from './policy/registry-context.js';

export { AdmissionChain, DEFAULT_ADMISSION_PLUGINS, enabledAdmissionPlugins, ORDERED_ADMISSION_PLUGINS, type AdmissionPluginName } from './chain.js';

export function newAdmissionChain(registry: Registry, names: readonly AdmissionPluginName[], opts: { serviceAccount?: ServiceAccountAdmissionOptions; authorizer?: Authorizer; policy?: RegistryPolicyOptions } = {}): AdmissionChain {
  const objects = registryObjectGetter(registry);
  const get = (resource: 'serviceaccounts' | 'pods', namespace: string, name: string): Promise<KubeObject | undefined> => objects.get(resource, namespace, name);
  // The webhooks match as the policies do (namespace labels, equivalent versions of a resource).
  const webhookContext = () => ({ ...registryDispatchContext(registry, { authorizer: opts.authorizer }), resolveService: registryServiceResolver(registry) });
  const plugins: AdmissionPlugin[] = names.map((name) => {
    switch (name) {
      case 'NamespaceLifecycle':
        return new NamespaceLifecycle(registryNamespacePhases(registry));
      case 'ServiceAccount':
        return new ServiceAccountAdmission({ serviceAccount: (ns, n) => get('serviceaccounts', ns, n) }, opts.serviceAccount);
      case 'NodeRestriction':
        return new NodeRestriction({ pod: (ns, n) => get('pods', ns, n) });
      case 'Priority':
        return new PriorityAdmission(registryClusterObjects<PriorityClass>(registry, 'scheduling.k8s.io', 'priorityclasses'));
      case 'DefaultTolerationSeconds':
        return new DefaultTolerationSeconds();
      case 'LimitRanger':
        return new LimitRanger({ list: namespaceObjects(registry, 'limitranges') });
      case 'ResourceQuota':
        return new ResourceQuotaAdmission(registryQuotaAccess(registry));
      case 'DefaultIngressClass':
        return new DefaultIngressClass(registryIngressClasses(registry));
      case 'RuntimeClass':
        return new RuntimeClassAdmission(registryClusterObjects<RuntimeClass>(registry, 'node.k8s.io', 'runtimeclasses'));
      case 'CertificateApproval':
        return new CertificateApproval(opts.authorizer ?? alwaysAllow);
      case 'CertificateSigning':
        return new CertificateSigning(opts.authorizer ?? alwaysAllow);
      case 'CertificateSubjectRestriction':
        return new CertificateSubjectRestriction();
      case 'DefaultStorageClass':
        return new DefaultStorageClass(registryStorageClasses(registry));
      case 'StorageObjectInUseProtection':
        return new StorageObjectInUseProtection();
      case 'PersistentVolumeClaimResize':
        return new PersistentVolumeClaimResize(registryClusterObjects<PersistentVolume>(registry, '', 'persistentvolumes'), registryClusterObjects<StorageClass>(registry, 'storage.k8s.io', 'storageclasses'));
      case 'ValidatingAdmissionPolicy':
        return new ValidatingAdmissionPolicyPlugin(registryPolicySources(registry), celPolicyCompiler, registryDispatchContext(registry, { authorizer: opts.authorizer, ...opts.policy }));
      case 'MutatingAdmissionWebhook':
        return new MutatingAdmissionWebhook(registryClusterObjects<MutatingWebhookConfiguration>(registry, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations'), webhookContext());
      case 'ValidatingAdmissionWebhook':
        return new ValidatingAdmissionWebhook(registryClusterObjects<ValidatingWebhookConfiguration>(registry, 'admissionregistration.k8s.io', 'validatingwebhookconfigurations'), webhookContext());
    }
  });
  return new AdmissionChain(plugins);
}
