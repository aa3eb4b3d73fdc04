// The API server's admission chain, built from the enabled plugin names over the registry (the
// lookups the plugins need read the watch cache, then storage).
import type { KubeObject } from '../../api/schema/kind.js';
import type { Registry } from '../../registry/registry.js';
import { registryObjectGetter } from '../auth/serviceaccount-token-lookup.js';
import { alwaysAllow } from '../auth/always-allow.js';
import type { Authorizer } from '../auth/types.js';
import { AdmissionChain, type AdmissionPluginName } from './chain.js';
import { CertificateApproval, CertificateSigning, CertificateSubjectRestriction } from './certificates.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { registryNamespacePhases } from './namespace-phases.js';
import { DefaultTolerationSeconds } from './default-toleration-seconds.js';
import { NodeRestriction } from './node-restriction.js';
import { PriorityAdmission } from './priority.js';
import { ServiceAccountAdmission, type ServiceAccountAdmissionOptions } from './service-account.js';
import type { AdmissionPlugin } from './types.js';

export { AdmissionChain, DEFAULT_ADMISSION_PLUGINS, enabledAdmissionPlugins, ORDERED_ADMISSION_PLUGINS, type AdmissionPluginName } from './chain.js';

export function newAdmissionChain(registry: Registry, names: readonly AdmissionPluginName[], opts: { serviceAccount?: ServiceAccountAdmissionOptions; authorizer?: Authorizer } = {}): AdmissionChain {
  const objects = registryObjectGetter(registry);
  const get = (resource: 'serviceaccounts' | 'pods', namespace: string, name: string): Promise<KubeObject | undefined> => objects.get(resource, namespace, name);
  const plugins: AdmissionPlugin[] = names.map((name) => {
    switch (name) {
      case 'NamespaceLifecycle':
        return new NamespaceLifecycle(registryNamespacePhases(registry));
      case 'ServiceAccount':
        return new ServiceAccountAdmission({ serviceAccount: (ns, n) => get('serviceaccounts', ns, n) }, opts.serviceAccount);
      case 'NodeRestriction':
        return new NodeRestriction({ pod: (ns, n) => get('pods', ns, n) });
      case 'Priority':
        return new PriorityAdmission();
      case 'DefaultTolerationSeconds':
        return new DefaultTolerationSeconds();
      case 'CertificateApproval':
        return new CertificateApproval(opts.authorizer ?? alwaysAllow);
      case 'CertificateSigning':
        return new CertificateSigning(opts.authorizer ?? alwaysAllow);
      case 'CertificateSubjectRestriction':
        return new CertificateSubjectRestriction();
    }
  });
  return new AdmissionChain(plugins);
}
