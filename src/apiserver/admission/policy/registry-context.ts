// What the plugin reads from the API server: policies, bindings, namespaces and params from the
// watch cache (storage before the cache's first list), served kinds from the kind table. CRD
// kinds are resolved by the integrator's `kindOf`/`equivalents` options (the kind table holds
// built-in kinds only).
import { findKind, storageVersionOf } from '../../../api/kinds.js';
import { metadataOf } from '../../../api/meta/object.js';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/types.js';
import type { Registry } from '../../../registry/registry.js';
import { registryClusterObjects, registryObjects } from '../cluster-objects.js';
import type { AdmissionAttributes } from '../types.js';
import type { DispatchContext } from './dispatcher.js';
import { builtinEquivalents } from './matching.js';
import type { PolicySources } from './plugin.js';

export interface RegistryPolicyOptions {
  /** The served kind of an apiVersion and kind (default: the built-in kind table). */
  kindOf?: (apiVersion: string, kind: string) => KindVersion | undefined;
  /** The kinds serving the same objects in other versions (matchPolicy Equivalent). */
  equivalents?: (kind: KindVersion) => readonly KindVersion[];
  /** The CEL `authorizer` value of a request (absent: expressions see none). */
  authorizer?: (a: AdmissionAttributes) => unknown;
}

export function registryPolicySources(registry: Registry): PolicySources {
  return {
    policies: registryClusterObjects<ValidatingAdmissionPolicy>(registry, 'admissionregistration.k8s.io', 'validatingadmissionpolicies'),
    bindings: registryClusterObjects<ValidatingAdmissionPolicyBinding>(registry, 'admissionregistration.k8s.io', 'validatingadmissionpolicybindings'),
  };
}

export function registryDispatchContext(registry: Registry, opts: RegistryPolicyOptions = {}): DispatchContext {
  const namespaces = registryClusterObjects<KubeObject>(registry, '', 'namespaces');
  return {
    namespace: (name) => namespaces.get(name),
    async namespaceLabels(name) {
      const ns = await namespaces.get(name);
      if (!ns) throw new Error(`namespaces "${name}" not found`);
      return metadataOf(ns).labels;
    },
    equivalents: opts.equivalents ?? builtinEquivalents,
    authorizer: opts.authorizer,
    params: {
      kind: opts.kindOf ?? findKind,
      objects(kind) {
        const stored = storageVersionOf(kind);
        return registryObjects<KubeObject>(registry, stored.group, stored.resource);
      },
    },
  };
}
