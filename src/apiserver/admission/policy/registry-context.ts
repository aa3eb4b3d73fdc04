// What the plugin reads from the API server: policies, bindings, namespaces and params from the
// watch cache (storage before the cache's first list), served kinds from the kind table. CRD
// kinds are resolved by the integrator's `kindOf`/`equivalents` options (the kind table holds
// built-in kinds only).
import { storageVersionOf } from '../../../api/kinds.js';
import { metadataOf } from '../../../api/meta/object.js';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/types.js';
import type { Registry } from '../../../registry/registry.js';
import { registryClusterObjects, registryObjects } from '../cluster-objects.js';
import type { AdmissionAttributes } from '../types.js';
import type { Authorizer } from '../../auth/types.js';
import { PolicyAuthorizer } from './authorizer.js';
import type { DispatchContext } from './dispatcher.js';
import { builtinEquivalents } from './matching.js';
import type { PolicySources } from './plugin.js';

export interface RegistryPolicyOptions {
  /** The served kind of an apiVersion and kind (default: the built-in kind table). */
  kindOf?: (apiVersion: string, kind: string) => KindVersion | undefined;
  /** The kinds serving the same objects in other versions (matchPolicy Equivalent). */
  equivalents?: (kind: KindVersion) => readonly KindVersion[];
  /** The API server's authorizer, which `authorizer` in expressions asks (absent: expressions see none). */
  authorizer?: Authorizer;
}

/** The stored version of a served kind (a CRD kind the table does not hold is its own). */
function storedAs(kind: KindVersion): KindVersion {
  try {
    return storageVersionOf(kind);
  } catch {
    return kind;
  }
}

export function registryPolicySources(registry: Registry): PolicySources {
  return {
    policies: registryClusterObjects<ValidatingAdmissionPolicy>(registry, 'admissionregistration.k8s.io', 'validatingadmissionpolicies'),
    bindings: registryClusterObjects<ValidatingAdmissionPolicyBinding>(registry, 'admissionregistration.k8s.io', 'validatingadmissionpolicybindings'),
  };
}

/** The served kinds sharing `kind`'s storage: built-in versions and a CRD's other versions. */
function servedEquivalents(registry: Registry, kind: KindVersion): readonly KindVersion[] {
  if (!kind.custom) return builtinEquivalents(kind);
  const hub = storageVersionOf(kind);
  return registry.servedKinds().filter((k) => k !== kind && k.custom?.crd === kind.custom!.crd && storageVersionOf(k) === hub);
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
    equivalents: opts.equivalents ?? ((kind) => servedEquivalents(registry, kind)),
    authorizer: opts.authorizer ? (a: AdmissionAttributes) => PolicyAuthorizer.forRequest(opts.authorizer!, a) : undefined,
    params: {
      // A kind only served, never stored (reviews, metrics), has no objects to be params.
      kind(apiVersion, kind) {
        const k = (opts.kindOf ?? ((av: string, kd: string) => registry.findKind(av, kd)))(apiVersion, kind);
        return k && registry.store(storedAs(k).group, k.resource) ? k : undefined;
      },
      objects(kind) {
        return registryObjects<KubeObject>(registry, storedAs(kind).group, kind.resource);
      },
    },
  };
}
