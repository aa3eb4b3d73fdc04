// What kube-apiserver creates for itself at start: the system namespaces (default, kube-system,
// kube-public, kube-node-lease) and the `kubernetes` Service in `default` with its Endpoints
// pointing at this server, so in-cluster clients and tools that look for them find them.
// Idempotent: a restart on existing data only brings the endpoint address up to date. Also the
// default ServiceCIDR `kubernetes` describing the service range, Ready, as kube-apiserver's
// default-servicecidr controller keeps it (./default-service-cidr.ts).
import { findResource } from '../api/kinds.js';
import { nameOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { StatusError } from '../machinery/status.js';
import type { Registry } from '../registry/registry.js';
import type { Store } from '../registry/store.js';
import { ensureDefaultServiceCIDR } from './default-service-cidr.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

function defaulted(resource: string, obj: KubeObject): KubeObject {
  findResource('', 'v1', resource)?.defaults?.(obj);
  return obj;
}

/**
 * The object named like `obj` if it exists, else creates `obj` (defaults applied) and returns
 * undefined: what every start-time ensurer does before deciding whether to bring an object up to date.
 */
export async function existingOrCreate(store: Store, namespace: string, obj: KubeObject): Promise<KubeObject | undefined> {
  try {
    // Look first: creating runs allocators (a Service's cluster IP) that an existing object would fail.
    return await store.get(namespace, nameOf(obj));
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
  }
  try {
    await store.create(namespace, obj);
  } catch (err) {
    if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
  }
  return undefined;
}

async function ensure(registry: Registry, resource: string, namespace: string, obj: KubeObject): Promise<void> {
  await existingOrCreate(registry.store('', resource)!, namespace, defaulted(resource, obj));
}

export async function bootstrapSystemObjects(registry: Registry, endpoint: { ip: string; port: number }): Promise<void> {
  // Side by side: the creates share one storage commit instead of waiting for five (the store
  // does not ask for the Service's namespace; only admission on the HTTP path does).
  await Promise.all([
    ...SYSTEM_NAMESPACES.map((name) => ensure(registry, 'namespaces', '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
    ensure(registry, 'services', 'default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: endpoint.port }], sessionAffinity: 'None' },
    }),
    ensureDefaultServiceCIDR(registry),
  ]);
  // Endpoints may not name loopback addresses (Kubernetes' validation), and a server bound to
  // loopback has no other address to advertise: then the Service stands without Endpoints.
  if (endpoint.ip.startsWith('127.') || endpoint.ip === '::1') return;
  const subsets = [{ addresses: [{ ip: endpoint.ip }], ports: [{ name: 'https', port: endpoint.port, protocol: 'TCP' }] }];
  const endpoints = registry.store('', 'endpoints')!;
  try {
    await endpoints.guaranteedUpdate('default', 'kubernetes', (cur) => ({ ...cur, subsets }));
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
    await ensure(registry, 'endpoints', 'default', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }, subsets });
  }
}
