// Where a webhook behind a Service answers: an ExternalName Service's host at the reference's port,
// or the Service's port named by the reference (443 by default) and a ready address of its
// endpoints (EndpointSlices of the Service, else its Endpoints) on that port's target. Simulated
// pods are not reachable: a webhook process on the host is reached with `url`, or through an
// ExternalName Service naming `localhost` (endpoints may not be loopback addresses).
import type { KubeObject } from '../../../api/schema/kind.js';
import type { Registry } from '../../../registry/registry.js';
import type { ServiceReference, ServiceResolver } from '../../webhook/client.js';
import { registryObjects } from '../cluster-objects.js';

type Obj = Record<string, any>;

export function registryServiceResolver(registry: Registry): ServiceResolver {
  const services = registryObjects<KubeObject>(registry, '', 'services');
  const endpoints = registryObjects<KubeObject>(registry, '', 'endpoints');
  const slices = registryObjects<KubeObject>(registry, 'discovery.k8s.io', 'endpointslices');
  return async (ref: ServiceReference) => {
    const service = (await services.get(ref.namespace, ref.name)) as Obj | undefined;
    if (!service) return undefined;
    const wanted = ref.port ?? 443;
    // An ExternalName Service names its host (kube-apiserver's endpoint resolver does the same):
    // the way to reach a webhook process on this machine, which Endpoints may not point at (loopback).
    if (service.spec?.type === 'ExternalName' && typeof service.spec.externalName === 'string') return { host: service.spec.externalName, port: wanted };
    const port = ((service.spec?.ports ?? []) as Obj[]).find((p) => p.port === wanted);
    if (!port) return undefined;
    const portName = port.name ?? '';
    for (const slice of (await slices.list(ref.namespace)) as Obj[]) {
      if (slice.metadata?.labels?.['kubernetes.io/service-name'] !== ref.name) continue;
      const p = ((slice.ports ?? []) as Obj[]).find((x) => (x.name ?? '') === portName);
      if (!p || typeof p.port !== 'number') continue;
      const ready = ((slice.endpoints ?? []) as Obj[]).find((e) => e.conditions?.ready !== false && (e.addresses ?? []).length > 0);
      if (ready) return { host: ready.addresses[0], port: p.port };
    }
    const ep = (await endpoints.get(ref.namespace, ref.name)) as Obj | undefined;
    for (const subset of (ep?.subsets ?? []) as Obj[]) {
      const p = ((subset.ports ?? []) as Obj[]).find((x) => (x.name ?? '') === portName);
      const address = ((subset.addresses ?? []) as Obj[])[0];
      if (p && address?.ip) return { host: address.ip, port: p.port };
    }
    return undefined;
  };
}
