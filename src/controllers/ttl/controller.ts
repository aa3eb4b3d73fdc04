// The TTL controller (Kubernetes' ttl controller): sets the annotation
// node.alpha.kubernetes.io/ttl (seconds the kubelet may cache objects) on every node, from the
// cluster's size, with hysteresis between the steps: the step goes up when the node count exceeds
// its sizeMax and down when it falls below its sizeMin. Nodes are annotated as they are added or
// updated (a step change reaches the others with their next update, as in Kubernetes).
import { objectOf } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister, WorkQueue } from '../../client/types.js';
import { annotationsOf } from '../../api/meta/object.js';
import type { Node } from '../../api/types.js';
import { keyOf } from '../../client/cache.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';

export const TTL_ANNOTATION = 'node.alpha.kubernetes.io/ttl';

export const TTL_BOUNDARIES: readonly { sizeMin: number; sizeMax: number; ttlSeconds: number }[] = [
  { sizeMin: 0, sizeMax: 100, ttlSeconds: 0 },
  { sizeMin: 90, sizeMax: 500, ttlSeconds: 15 },
  { sizeMin: 450, sizeMax: 1000, ttlSeconds: 30 },
  { sizeMin: 900, sizeMax: 2000, ttlSeconds: 60 },
  { sizeMin: 1800, sizeMax: 10000, ttlSeconds: 300 },
  { sizeMin: 9000, sizeMax: 2 ** 31 - 1, ttlSeconds: 600 },
];

export class TTLController implements Controller {
  readonly name = 'ttl';
  readonly queue: WorkQueue<string>;
  private readonly lister: Lister;
  nodeCount = 0;
  boundaryStep = 0;
  desiredTTLSeconds = 0;

  constructor(
    private readonly ctx: ControllerContext,
    opts: { newQueue?: () => WorkQueue<string> } = {},
  ) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'ttlcontroller' })))();
    const inf = ctx.informers.informer({ group: '', version: 'v1', resource: 'nodes' });
    this.lister = inf.lister;
    inf.addEventHandler({
      onAdd: (n) => this.addNode(n),
      onUpdate: (_o, n) => this.queue.add(keyOf(n)),
      onDelete: (n) => this.deleteNode(objectOf(n)),
    });
  }

  addNode(node: Node): void {
    this.nodeCount++;
    if (this.nodeCount > TTL_BOUNDARIES[this.boundaryStep]!.sizeMax) {
      this.boundaryStep++;
      this.desiredTTLSeconds = TTL_BOUNDARIES[this.boundaryStep]!.ttlSeconds;
    }
    this.queue.add(keyOf(node));
  }

  deleteNode(_node: Node): void {
    this.nodeCount--;
    if (this.nodeCount < TTL_BOUNDARIES[this.boundaryStep]!.sizeMin) {
      this.boundaryStep--;
      this.desiredTTLSeconds = TTL_BOUNDARIES[this.boundaryStep]!.ttlSeconds;
    }
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runWorkers(this.queue, workers, signal, async (key) => {
      try {
        await this.sync(key);
        this.queue.forget(key);
      } catch (e) {
        this.ctx.log({ controller: this.name, msg: 'Failed to change ttl annotation for node', node: key, err: String(e) });
        this.queue.addRateLimited(key);
      }
    });
  }

  /** Kubernetes' updateNodeIfNeeded. */
  async sync(key: string): Promise<void> {
    const node = this.lister.get('', key);
    if (!node) return;
    const desired = this.desiredTTLSeconds;
    const raw = annotationsOf(node)[TTL_ANNOTATION];
    if (raw !== undefined && /^[+-]?\d+$/.test(raw) && Number(raw) === desired) return;
    try {
      await this.ctx.clientset.resource({ group: '', version: 'v1', resource: 'nodes' }).patch('', key, 'strategic', { metadata: { annotations: { [TTL_ANNOTATION]: String(desired) } } });
      this.ctx.log({ controller: this.name, msg: 'Changed ttl annotation', node: key, ttlSeconds: desired });
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
  }
}

