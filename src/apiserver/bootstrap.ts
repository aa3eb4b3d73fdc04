// What kube-apiserver creates for itself at start: the system namespaces (default, kube-system,
// kube-public, kube-node-lease), the `kubernetes` Service in `default` with its Endpoints and
// EndpointSlice pointing at this server, so in-cluster clients and tools that look for them find
// them, the system PriorityClasses (its scheduling/bootstrap-system-priority-classes hook), and the
// default ServiceCIDR `kubernetes` describing the service range, Ready, as kube-apiserver's
// default-servicecidr controller keeps it (./default-service-cidr.ts), and the ConfigMap of its
// legacy token tracking saying since when legacy service account tokens' use is recorded (the
// legacy-serviceaccount-token-cleaner waits for a year of it).
// Idempotent: a restart on existing data only brings the endpoint address up to date.
import { findResource } from '../api/kinds.js';
import { clone } from '../api/go-json.js';
import { nameOf } from '../api/meta/object.js';
import type { KubeObject } from '../api/schema/kind.js';
import { StatusError } from '../machinery/status.js';
import { isIPv6String } from '../machinery/validation/names.js';
import { SYSTEM_PRIORITY_CLASSES } from '../registry/kinds/scheduling/system-priority-classes.js';
import type { Registry } from '../registry/registry.js';
import { UNCHANGED, type Store } from '../registry/store.js';
import { ensureDefaultServiceCIDR } from './default-service-cidr.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

function defaulted(group: string, resource: string, obj: KubeObject): KubeObject {
  findResource(group, 'v1', resource)?.defaults?.(obj);
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

async function ensure(registry: Registry, resource: string, namespace: string, obj: KubeObject, group = ''): Promise<void> {
  await existingOrCreate(registry.store(group, resource)!, namespace, defaulted(group, resource, obj));
}

/** `writeEndpoints` false: the endpoints are left to the lease endpoint reconciler (peers/endpoint-reconciler.ts). */
export async function bootstrapSystemObjects(registry: Registry, endpoint: { ip: string; port: number }, writeEndpoints = true): Promise<void> {
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
    ...SYSTEM_PRIORITY_CLASSES.map((pc) => ensure(registry, 'priorityclasses', '', clone(pc), 'scheduling.k8s.io')),
    ensureLegacyTokenTracking(registry, Date.now()),
  ]);
  // Endpoints may not name loopback addresses (Kubernetes' validation), and a server bound to
  // loopback has no other address to advertise: then the Service stands without Endpoints.
  if (!writeEndpoints || isLoopback(endpoint.ip)) return;
  await writeKubernetesEndpoints(registry, [endpoint.ip], endpoint.port);
}

export function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1';
}

/**
 * The `default/kubernetes` Endpoints and EndpointSlice listing these API server addresses on
 * `port` (addresses sorted, as the endpoint reconciler keeps them); unchanged objects are not written.
 */
export async function writeKubernetesEndpoints(registry: Registry, ips: readonly string[], port: number): Promise<void> {
  const sorted = [...ips].sort();
  const ports = [{ name: 'https', port, protocol: 'TCP' }];
  const subsets = sorted.length === 0 ? [] : [{ addresses: sorted.map((ip) => ({ ip })), ports }];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  await upsert(registry, '', 'endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }, subsets }, (cur) =>
    same(cur.subsets ?? [], subsets) ? UNCHANGED : { ...cur, subsets },
  );
  // The EndpointsAdapter of kube-apiserver's endpoint reconciler writes the same addresses as an
  // EndpointSlice of the same name, labelled with the Service it belongs to.
  const slice = {
    addressType: sorted.some(isIPv6String) ? 'IPv6' : 'IPv4',
    endpoints: sorted.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [{ name: 'https', protocol: 'TCP', port }],
  };
  await upsert(
    registry,
    'discovery.k8s.io',
    'endpointslices',
    { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } }, ...slice },
    (cur) => (same(cur.endpoints ?? [], slice.endpoints) && same(cur.ports, slice.ports) && cur.addressType === slice.addressType ? UNCHANGED : { ...cur, ...slice }),
  );
}

export const LEGACY_TOKEN_TRACKING_CONFIG_MAP = 'kube-apiserver-legacy-service-account-token-tracking';

/** kube-apiserver's legacytokentracking controller: `since: <today>` when missing or not a date (Go's 2006-01-02, UTC). */
export async function ensureLegacyTokenTracking(registry: Registry, now: number): Promise<void> {
  const today = new Date(now).toISOString().slice(0, 10);
  const store = registry.store('', 'configmaps')!;
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: LEGACY_TOKEN_TRACKING_CONFIG_MAP, namespace: 'kube-system' }, data: { since: today } };
  const existing = await existingOrCreate(store, 'kube-system', cm);
  const since = (existing?.data as Record<string, string> | undefined)?.since ?? '';
  if (!existing || (/^\d{4}-\d{2}-\d{2}$/.test(since) && !Number.isNaN(Date.parse(since)))) return;
  await store.guaranteedUpdate('kube-system', LEGACY_TOKEN_TRACKING_CONFIG_MAP, (cur) => ({ ...cur, data: { ...(cur.data as Record<string, string> | undefined), since: today } }));
}

/** Brings `default/<name>` of the resource up to date with `update`, creating `obj` when it is missing. */
async function upsert(registry: Registry, group: string, resource: string, obj: KubeObject, update: (cur: KubeObject) => KubeObject | typeof UNCHANGED): Promise<void> {
  try {
    await registry.store(group, resource)!.guaranteedUpdate('default', nameOf(obj), update);
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
    await ensure(registry, resource, 'default', obj, group);
  }
}
