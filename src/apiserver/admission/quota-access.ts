// The quotas ResourceQuota admission reads and charges, over the registry's resourcequotas store:
// listed as admission lists namespace objects (namespace-objects.ts), each re-read from storage
// after a lost race; status written through the status path with the resourceVersion read as
// precondition (a 409 when another write came first).
import type { KubeObject } from '../../api/schema/kind.js';
import type { ResourceQuota } from '../../api/types.js';
import type { Registry } from '../../registry/registry.js';
import { StatusError } from '../../machinery/status.js';
import { namespaceObjects } from './namespace-objects.js';
import type { QuotaAccess } from './resource-quota.js';


export function registryQuotaAccess(registry: Registry): QuotaAccess {
  const store = () => registry.store('', 'resourcequotas');
  return {
    list: namespaceObjects<ResourceQuota>(registry, 'resourcequotas'),
    async get(namespace, name) {
      const s = store();
      if (!s) return undefined;
      try {
        return (await s.get(namespace, name)) as ResourceQuota;
      } catch (err) {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      }
    },
    async updateStatus(quota) {
      const s = store();
      if (!s) return;
      await s.update(quota.metadata?.namespace ?? '', quota.metadata?.name ?? '', quota as KubeObject, { subresource: 'status' });
    },
  };
}
