// The token cleaner (kube-controller-manager's pkg/controller/bootstrap/tokencleaner.go): an
// expired bootstrap token Secret in kube-system is deleted (conditioned on its uid); one that will
// expire is looked at again then.
import { namespaceOf, nameOf, uidOf } from '../../api/meta/object.js';
import { keyOf, splitKey } from '../../client/cache.js';
import { isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { BOOTSTRAP_TOKEN_NAMESPACE, BOOTSTRAP_TOKEN_SECRET_TYPE, bootstrapTokenExpired, bootstrapTokenExpiry, type BootstrapSecret } from '../../machinery/bootstrap-token.js';

export const SECRETS = { group: '', version: 'v1', resource: 'secrets' };

export class TokenCleaner implements Controller {
  readonly name = 'tokencleaner';
  readonly queue: WorkQueue<string>;
  private readonly secrets: Lister;
  private readonly client: ResourceClient;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'token_cleaner' });
    const informer = ctx.informers.informer(SECRETS);
    this.secrets = informer.lister;
    this.client = ctx.clientset.resource(SECRETS);
    const enqueue = (s: BootstrapSecret) => {
      if (namespaceOf(s as never) === BOOTSTRAP_TOKEN_NAMESPACE && s.type === BOOTSTRAP_TOKEN_SECRET_TYPE) this.queue.add(keyOf(s as never));
    };
    informer.addEventHandler({ onAdd: (s) => enqueue(s as BootstrapSecret), onUpdate: (_o, s) => enqueue(s as BootstrapSecret) });
  }

  run(workers: number, signal: AbortSignal): Promise<void> {
    return runSyncWorkers(this.queue, workers, signal, (key) => this.sync(key), (key, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: (err as Error).message }));
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = splitKey(key);
    const secret = this.secrets.get(namespace, name) as BootstrapSecret | undefined;
    if (!secret || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return;
    const now = this.ctx.now();
    if (bootstrapTokenExpired(secret, now)) {
      this.ctx.log({ controller: this.name, msg: 'deleting expired bootstrap token', secret: key });
      try {
        await this.client.delete(namespace, nameOf(secret as never), { preconditions: { uid: uidOf(secret as never) } });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return;
    }
    const expiry = bootstrapTokenExpiry(secret);
    if (expiry !== undefined) this.queue.addAfter(key, Math.max(0, expiry - now) + 1);
  }
}
