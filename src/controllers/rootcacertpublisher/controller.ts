// The root-ca-cert-publisher controller (Kubernetes' rootcacertpublisher): every namespace that is
// not being deleted has a ConfigMap `kube-root-ca.crt` with `ca.crt` = --root-ca-file, the CA a pod
// uses to trust the API server (the ServiceAccount admission plugin's projected volume refers to
// it). A changed or deleted one is put back; without --root-ca-file it does not run.
import { annotationsOf, isBeingDeleted, metadataOf, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { ConfigMap } from '../../api/types.js';
import { isAlreadyExists, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerConstructor, ControllerContext, KubeObject, Lister, Tombstone, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { disabledController } from '../common/disabled.js';
import { objectOf } from '../../client/cache.js';
import { readRootCA } from '../serviceaccounttoken/controller.js';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
/** Kubernetes annotates the ConfigMap with a description of what it is. */
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

export class RootCACertPublisher implements Controller {
  readonly name = 'root-ca-cert-publisher';
  readonly queue: WorkQueue<string>;
  private readonly namespaces: Lister;
  private readonly configMaps: Lister;

  constructor(private readonly ctx: ControllerContext, private readonly rootCA: string, opts: { newQueue?: () => WorkQueue<string> } = {}) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'root_ca_cert_publisher' })))();
    const ns = ctx.informers.informer(NAMESPACES);
    const cm = ctx.informers.informer(CONFIGMAPS);
    this.namespaces = ns.lister;
    this.configMaps = cm.lister;
    const enqueueNs = (o: KubeObject) => this.queue.add(nameOf(o));
    ns.addEventHandler({ onAdd: enqueueNs, onUpdate: (_o, n) => enqueueNs(n) });
    const enqueueCm = (o: KubeObject | Tombstone) => {
      const cm = objectOf(o);
      if (nameOf(cm) === ROOT_CA_CONFIGMAP) this.queue.add(namespaceOf(cm));
    };
    cm.addEventHandler({ onUpdate: (_o, n) => enqueueCm(n), onDelete: enqueueCm });
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runWorkers(this.queue, workers, signal, async (namespace) => {
      await this.sync(namespace);
      this.queue.forget(namespace);
    }, (namespace, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', namespace, err: String(err) }));
  }

  async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.get('', namespace);
    if (!ns || isBeingDeleted(ns)) return;
    const client = this.ctx.clientset.resource(CONFIGMAPS);
    const existing: ConfigMap | undefined = this.configMaps.get(namespace, ROOT_CA_CONFIGMAP);
    const data = { 'ca.crt': this.rootCA };
    if (!existing) {
      try {
        await client.create(namespace, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data });
      } catch (err) {
        // There already (the cache was behind), or the namespace went or is terminating meanwhile.
        if (isAlreadyExists(err) || isNotFound(err) || (err as { code?: number }).code === 403) return;
        throw err;
      }
      return;
    }
    const current = existing.data ?? {};
    const annotations = annotationsOf(existing);
    if (Object.keys(current).length === 1 && current['ca.crt'] === this.rootCA && annotations[DESCRIPTION_ANNOTATION] === DESCRIPTION) return;
    await client.update(namespace, {
      ...existing,
      metadata: { ...metadataOf(existing), annotations: { ...annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
      data,
    });
  }
}

export const newRootCACertPublisher: ControllerConstructor = (ctx) => {
  const rootCA = readRootCA(ctx.options);
  if (rootCA === '') return disabledController('root-ca-cert-publisher', ctx, 'there is no --root-ca-file');
  return new RootCACertPublisher(ctx, rootCA);
};
