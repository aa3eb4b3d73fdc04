// Where a container's environment and volume contents come from on a node: the API, through the
// node's own client (ConfigMaps, Secrets, Services, and service account tokens bound to the pod
// through TokenRequest), as the kubelet's managers read them.
import type { ConfigMap, Secret, Service } from '../api/types.js';
import { isNotFound } from '../client/errors.js';
import type { Clientset } from '../client/types.js';
import type { VolumeSources } from './shell/index.js';

export function apiVolumeSources(client: Clientset): VolumeSources {
  const get = async <T>(resource: string, namespace: string, name: string): Promise<T | undefined> => {
    try {
      return (await client.resource({ group: '', version: 'v1', resource }).get(namespace, name)) as T;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  };
  return {
    configMap: (ns, name) => get<ConfigMap>('configmaps', ns, name),
    secret: (ns, name) => get<Secret>('secrets', ns, name),
    services: async () => (await client.resource({ group: '', version: 'v1', resource: 'services' }).list('')).items as Service[],
    serviceAccountToken: async (r) => {
      const answer = await client.resource({ group: '', version: 'v1', resource: 'serviceaccounts' }).createSubresource(r.namespace, r.serviceAccountName, 'token', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { ...(r.audience ? { audiences: [r.audience] } : {}), expirationSeconds: r.expirationSeconds, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: r.podName, uid: r.podUID } },
      });
      return String((answer.status as { token?: string } | undefined)?.token ?? '');
    },
  };
}
