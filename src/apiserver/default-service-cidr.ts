// kube-apiserver's default ServiceCIDR controller (pkg/controlplane/controller/defaultservicecidr),
// run once at start: the ServiceCIDR `kubernetes` holds the service range the API server allocates
// cluster IPs from, and its Ready condition is True when it matches that range and has no Ready
// condition yet. An existing object with other CIDRs is left as it is (Kubernetes only reports the
// mismatch), as is one whose Ready condition is False or True.
import { StatusError } from '../machinery/status.js';
import { DEFAULT_SERVICE_CIDR } from '../registry/kinds/core/service/allocator.js';
import type { Registry } from '../registry/registry.js';
import { UNCHANGED } from '../registry/store.js';
import type { KubeObject } from '../api/schema/kind.js';
import type { ServiceCIDR } from '../api/types.js';

export const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';
const CONTROLLER_NAME = 'kubernetes-service-cidr-controller';
const READY_MESSAGE = 'Kubernetes default Service CIDR is ready';

function readyCondition(now: number) {
  return { type: 'Ready', status: 'True', lastTransitionTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z'), reason: '', message: READY_MESSAGE };
}

function needsReady(o: ServiceCIDR, cidrs: readonly string[]): boolean {
  const spec = o.spec?.cidrs ?? [];
  if (spec.length !== cidrs.length || spec.some((c, i) => c !== cidrs[i])) return false;
  if (o.metadata?.deletionTimestamp) return false;
  const ready = (o.status?.conditions ?? []).find((c) => c.type === 'Ready');
  return ready === undefined || ready.status === 'Unknown';
}

export async function ensureDefaultServiceCIDR(registry: Registry, cidrs: readonly string[] = [DEFAULT_SERVICE_CIDR]): Promise<void> {
  const store = registry.store('networking.k8s.io', 'servicecidrs');
  if (!store) return;
  let current: ServiceCIDR;
  try {
    current = (await store.get('', DEFAULT_SERVICE_CIDR_NAME)) as ServiceCIDR;
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
    const created: KubeObject = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: DEFAULT_SERVICE_CIDR_NAME }, spec: { cidrs: [...cidrs] } };
    try {
      current = (await store.create('', created)) as ServiceCIDR;
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
      current = (await store.get('', DEFAULT_SERVICE_CIDR_NAME)) as ServiceCIDR;
    }
  }
  if (!needsReady(current, cidrs)) return;
  // Through servicecidrs/status, under the controller's field manager, as Kubernetes applies it.
  await store.guaranteedUpdate(
    '',
    DEFAULT_SERVICE_CIDR_NAME,
    (cur) => {
      const o = cur as ServiceCIDR;
      if (!needsReady(o, cidrs)) return UNCHANGED;
      const others = (o.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
      return { ...cur, status: { conditions: [...others, readyCondition(Date.now())] } };
    },
    { subresource: 'status', fieldManager: { manager: CONTROLLER_NAME, apiVersion: 'networking.k8s.io/v1', subresource: 'status' } },
  );
}
