// The StorageClasses DefaultStorageClass admission chooses from: storage.k8s.io storageclasses as
// the cluster-scoped objects admission reads (the watch cache; storage before it has loaded), as
// Kubernetes' plugin reads its informer. The plugin is about storage classes, so it is the one
// that names their store.
import type { KubeObject } from '../../api/schema/kind.js';
import type { Registry } from '../../registry/registry.js';
import { registryClusterObjects } from './cluster-objects.js';
import type { StorageClassLister } from './default-storage-class.js';

export function registryStorageClasses(registry: Registry): StorageClassLister {
  return registryClusterObjects<KubeObject>(registry, 'storage.k8s.io', 'storageclasses');
}
