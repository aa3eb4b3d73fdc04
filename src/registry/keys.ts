// Where objects live in storage: `/registry/<resource>/...` for the core group (as kube-apiserver
// lays out etcd) and `/registry/<group>/<resource>/...` for the others; namespaced objects under
// `<namespace>/<name>`, cluster-scoped ones under `<name>`. Always the storage version's group, so
// extensions/v1beta1 deployments and apps/v1 deployments are the same objects.
import type { KindVersion } from '../api/schema/kind.js';

export function resourcePrefix(storageKind: Pick<KindVersion, 'group' | 'resource'>): string {
  return storageKind.group === '' ? `/registry/${storageKind.resource}/` : `/registry/${storageKind.group}/${storageKind.resource}/`;
}

/** The prefix of one namespace's objects, or of all objects when `namespace` is ''. */
export function namespacePrefix(storageKind: Pick<KindVersion, 'group' | 'resource' | 'namespaced'>, namespace: string): string {
  const prefix = resourcePrefix(storageKind);
  return storageKind.namespaced && namespace !== '' ? `${prefix}${namespace}/` : prefix;
}

export function objectKey(storageKind: Pick<KindVersion, 'group' | 'resource' | 'namespaced'>, namespace: string, name: string): string {
  return storageKind.namespaced ? `${resourcePrefix(storageKind)}${namespace}/${name}` : `${resourcePrefix(storageKind)}${name}`;
}
