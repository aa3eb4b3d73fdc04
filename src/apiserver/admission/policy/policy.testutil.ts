// What the policy tests share: a dispatch context over objects in memory, and policies and
// bindings written compactly.
import { findKind } from '../../../api/kinds.js';
import { metadataOf, nameOf, namespaceOf } from '../../../api/meta/object.js';
import type { KubeObject } from '../../../api/schema/kind.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/types.js';
import type { DispatchContext } from './dispatcher.js';

export function memoryContext(objects: KubeObject[], namespaces: Record<string, Record<string, string>> = {}): DispatchContext {
  const nsObject = (name: string): KubeObject | undefined => (name in namespaces ? { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: namespaces[name] }, spec: {}, status: { phase: 'Active' } } : undefined);
  const ofKind = (apiVersion: string, kind: string) => objects.filter((o) => o.apiVersion === apiVersion && o.kind === kind);
  return {
    namespace: async (name) => nsObject(name),
    async namespaceLabels(name) {
      const ns = nsObject(name);
      if (!ns) throw new Error(`namespaces "${name}" not found`);
      return metadataOf(ns).labels;
    },
    params: {
      kind: findKind,
      objects: (kind) => {
        const apiVersion = kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
        return {
          get: async (ns, name) => ofKind(apiVersion, kind.kind).find((o) => namespaceOf(o) === ns && nameOf(o) === name),
          list: async (ns) => ofKind(apiVersion, kind.kind).filter((o) => ns === '' || namespaceOf(o) === ns),
        };
      },
    },
  };
}

export const deploymentsRule = { operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };

export function policy(name: string, spec: Partial<NonNullable<ValidatingAdmissionPolicy['spec']>>): ValidatingAdmissionPolicy {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [deploymentsRule], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' }, ...spec } };
}

export function binding(name: string, policyName: string, spec: Partial<NonNullable<ValidatingAdmissionPolicyBinding['spec']>> = {}): ValidatingAdmissionPolicyBinding {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } };
}
