// The service controller (k8s.io/cloud-provider's service controller, kube-controller-manager's
// `service`): a Service of type LoadBalancer (without spec.loadBalancerClass) gets a load balancer
// from the cloud, its address in status.loadBalancer.ingress and the finalizer
// service.kubernetes.io/load-balancer-cleanup; when it stops being one or is deleted, the load
// balancer goes, then the finalizer. Every --service-sync-period each Service is looked at again.
import { finalizersOf, isBeingDeleted } from '../../api/meta/object.js';
import type { Service } from '../../api/types.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, EventRecorder, KubeObject, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import type { KubeliteCloud } from './provider.js';

export const SERVICES = { group: '', version: 'v1', resource: 'services' };
export const LB_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

const wantsLoadBalancer = (svc: Service): boolean => svc.spec?.type === 'LoadBalancer' && !svc.spec.loadBalancerClass && !isBeingDeleted(svc as KubeObject);

export class ServiceController implements Controller {
  readonly name = 'service';
  readonly queue: WorkQueue<string>;
  private readonly lister: Lister;
  private readonly client: ResourceClient;
  private readonly recorder: EventRecorder;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly cloud: KubeliteCloud,
  ) {
    this.queue = newRateLimitingQueue<string>({ name: 'service' });
    const informer = ctx.informers.informer(SERVICES);
    this.lister = informer.lister;
    this.client = ctx.clientset.resource(SERVICES);
    this.recorder = ctx.recorder('service-controller');
    informer.addEventHandler({ onAdd: (s) => this.queue.add(keyOf(s)), onUpdate: (_o, s) => this.queue.add(keyOf(s)), onDelete: (s) => this.queue.add(keyOf(s as KubeObject)) });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    const period = typeof this.ctx.options.serviceSyncPeriod === 'number' ? this.ctx.options.serviceSyncPeriod : 300_000;
    return runSyncWorkers(this.queue, workers, signal, async (key) => {
      await this.sync(key);
      if (this.lister.get(...splitKey(key))) this.queue.addAfter(key, period);
    }, (key, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: (err as Error).message }));
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const svc = this.lister.get(namespace, name) as Service | undefined;
    if (!svc) {
      this.cloud.ensureLoadBalancerDeleted(key);
      return;
    }
    const hasFinalizer = finalizersOf(svc as KubeObject).includes(LB_FINALIZER);
    const ingress = svc.status?.loadBalancer?.ingress ?? [];
    if (wantsLoadBalancer(svc)) {
      if (!hasFinalizer) await this.client.patch(namespace, name, 'merge', { metadata: { finalizers: [...finalizersOf(svc as KubeObject), LB_FINALIZER], resourceVersion: svc.metadata?.resourceVersion } });
      const current = ingress[0]?.ip ?? undefined;
      let ip: string;
      try {
        ip = this.cloud.ensureLoadBalancer(key, current);
      } catch (err) {
        this.recorder.event(svc as KubeObject, 'Warning', 'SyncLoadBalancerFailed', `Error syncing load balancer: failed to ensure load balancer: ${(err as Error).message}`);
        throw err;
      }
      if (ingress.length === 1 && ingress[0]?.ip === ip) return;
      this.recorder.event(svc as KubeObject, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
      await this.client.patch(namespace, name, 'merge', { status: { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } } }, { subresource: 'status' });
      this.recorder.event(svc as KubeObject, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
      return;
    }
    if (!hasFinalizer && ingress.length === 0) return;
    this.recorder.event(svc as KubeObject, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
    this.cloud.ensureLoadBalancerDeleted(key);
    try {
      if (ingress.length > 0) await this.client.patch(namespace, name, 'merge', { status: { loadBalancer: { ingress: null } } }, { subresource: 'status' });
      this.recorder.event(svc as KubeObject, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
      if (hasFinalizer) await this.client.patch(namespace, name, 'merge', { metadata: { finalizers: finalizersOf(svc as KubeObject).filter((f) => f !== LB_FINALIZER) } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
