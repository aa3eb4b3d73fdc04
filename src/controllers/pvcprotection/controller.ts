// The PVC protection controller (Kubernetes' pkg/controller/volume/pvcprotection): a claim being
// deleted keeps its kubernetes.io/pvc-protection finalizer while a pod uses it, so a running pod
// never loses its volume; once no pod does, the finalizer goes and the claim with it. Claims
// without the finalizer (created before the admission plugin was on) get it.
//
// A pod uses a claim when it is scheduled, not finished (Succeeded or Failed), and names the
// claim in a persistentVolumeClaim volume or owns it through a generic ephemeral volume
// (`<pod>-<volume>`). Before letting a claim go the controller asks the API server too, as
// Kubernetes does: the pod informer may not have seen a pod created a moment ago.
import { FINALIZER_PVC_PROTECTION, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { PersistentVolumeClaim, Pod } from '../../api/types.js';
import { keyOf, objectOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceRef, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue } from '../../client/workqueue.js';
import { isDeletionCandidate, needsFinalizer, runProtectionWorkers, setFinalizer } from '../common/protection-finalizer.js';

const PVCS: ResourceRef = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

/** The names of the claims a pod's volumes refer to, in the pod's namespace. */
export function claimsOf(pod: Pod): string[] {
  const names: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim) names.push(claim);
    else if (v.ephemeral) names.push(`${nameOf(pod)}-${v.name ?? ''}`);
  }
  return names;
}

/** Whether `pod` keeps the claim named `claim` (in its namespace) in use. */
export function podUsesClaim(pod: Pod, claim: string): boolean {
  if ((pod.spec?.nodeName ?? '') === '') return false;
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  return claimsOf(pod).includes(claim);
}

export class PVCProtectionController implements Controller {
  readonly name = 'pvc-protection';
  readonly queue: WorkQueue<string>;
  private readonly claims: Lister;
  private readonly pods: Lister;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string> } = {},
  ) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'pvcprotection' })))();
    const claimInformer = ctx.informers.informer(PVCS);
    this.claims = claimInformer.lister;
    claimInformer.addEventHandler({
      onAdd: (c) => this.enqueueIfNeeded(c),
      onUpdate: (_old, c) => this.enqueueIfNeeded(c),
    });
    const podInformer = ctx.informers.informer(PODS);
    this.pods = podInformer.lister;
    // A pod that goes away or finishes may release the claims it held.
    podInformer.addEventHandler({
      onAdd: (p) => this.enqueueClaimsOf(p),
      onUpdate: (_old, p) => this.enqueueClaimsOf(p),
      onDelete: (p) => this.enqueueClaimsOf(objectOf(p)),
    });
  }

  private enqueueIfNeeded(claim: KubeObject): void {
    if (isDeletionCandidate(claim, FINALIZER_PVC_PROTECTION) || needsFinalizer(claim, FINALIZER_PVC_PROTECTION)) this.queue.add(keyOf(claim));
  }

  private enqueueClaimsOf(pod: KubeObject): void {
    const namespace = namespaceOf(pod);
    for (const name of claimsOf(pod as Pod)) {
      const claim = this.claims.get(namespace, name);
      if (claim && isDeletionCandidate(claim, FINALIZER_PVC_PROTECTION)) this.queue.add(keyOf(claim));
    }
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runProtectionWorkers(this.ctx, this.name, this.queue, workers, signal, (key) => this.sync(key));
  }

  /** Kubernetes' processPVC. */
  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const claim = this.claims.get(namespace, name) as PersistentVolumeClaim | undefined;
    if (!claim) return;
    const client = this.ctx.clientset.resource(PVCS);
    try {
      if (isDeletionCandidate(claim, FINALIZER_PVC_PROTECTION)) {
        if (!(await this.isInUse(namespace, name))) await setFinalizer(client, claim, FINALIZER_PVC_PROTECTION, false);
      } else if (needsFinalizer(claim, FINALIZER_PVC_PROTECTION)) {
        await setFinalizer(client, claim, FINALIZER_PVC_PROTECTION, true);
      }
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
  }

  /** The informer first; when it knows of no user, a live list of the namespace's pods. */
  private async isInUse(namespace: string, claim: string): Promise<boolean> {
    if (this.pods.list(namespace).some((p) => podUsesClaim(p as Pod, claim))) return true;
    const live = await this.ctx.clientset.resource(PODS).list(namespace);
    return live.items.some((p) => podUsesClaim(p as Pod, claim));
  }
}
