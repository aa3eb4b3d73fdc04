// The serviceaccount-token controller (Kubernetes' TokensController): a Secret of type
// kubernetes.io/service-account-token that names a service account (annotation
// kubernetes.io/service-account.name, and .uid once known) is filled with a legacy token signed
// with --service-account-private-key-file, the namespace and ca.crt from --root-ca-file; a token
// Secret whose service account is gone (or was recreated with another uid) is deleted, and so are a
// service account's token Secrets when it is deleted. Without a private key it does not run.
import { readFileSync } from 'node:fs';
import { annotationsOf, metadataOf, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Secret } from '../../api/types.js';
import { objectOf } from '../../client/cache.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerConstructor, ControllerContext, KubeObject, Lister, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runWorkers } from '../../client/workqueue.js';
import { readSigningKey, type SigningKey } from '../../machinery/jwt/keys.js';
import { legacyClaims, signToken } from '../../machinery/jwt/tokens.js';
import { disabledController } from '../common/disabled.js';
import { stringOption } from '../common/options.js';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SA_UID_ANNOTATION = 'kubernetes.io/service-account.uid';
const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const SERVICE_ACCOUNTS = { group: '', version: 'v1', resource: 'serviceaccounts' };

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export interface TokensControllerOptions {
  signingKey: SigningKey;
  /** PEM bundle for ca.crt ('' : none). */
  rootCA: string;
  newQueue?: () => WorkQueue<string>;
}

/** Queue items: `secret/<ns>/<name>` to fill or delete a token Secret, `sa/<ns>/<name>/<uid>` for a deleted service account. */
export class TokensController implements Controller {
  readonly name = 'serviceaccount-token';
  readonly queue: WorkQueue<string>;
  private readonly secrets: Lister;
  private readonly serviceAccounts: Lister;

  constructor(private readonly ctx: ControllerContext, private readonly opts: TokensControllerOptions) {
    this.queue = (opts.newQueue ?? (() => newRateLimitingQueue<string>({ name: 'serviceaccount-token' })))();
    const secrets = ctx.informers.informer(SECRETS);
    const serviceAccounts = ctx.informers.informer(SERVICE_ACCOUNTS);
    this.secrets = secrets.lister;
    this.serviceAccounts = serviceAccounts.lister;
    const enqueueSecret = (o: KubeObject) => {
      if (o.type === SERVICE_ACCOUNT_TOKEN_TYPE) this.queue.add(`secret/${namespaceOf(o)}/${nameOf(o)}`);
    };
    secrets.addEventHandler({ onAdd: enqueueSecret, onUpdate: (_old, n) => enqueueSecret(n) });
    serviceAccounts.addEventHandler({
      onDelete: (o) => {
        const sa = objectOf(o);
        this.queue.add(`sa/${namespaceOf(sa)}/${nameOf(sa)}/${uidOf(sa)}`);
      },
      // A (re)created service account may make waiting token Secrets fillable.
      onAdd: (o) => this.enqueueTokensOf(namespaceOf(o), nameOf(o)),
    });
  }

  private enqueueTokensOf(namespace: string, name: string): void {
    for (const secret of this.secrets.list(namespace)) {
      if (secret.type === SERVICE_ACCOUNT_TOKEN_TYPE && annotationsOf(secret)[SA_NAME_ANNOTATION] === name) {
        this.queue.add(`secret/${namespace}/${nameOf(secret)}`);
      }
    }
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    if (!(await this.ctx.informers.waitForCacheSync(signal)) || signal.aborted) {
      this.queue.shutDown();
      return;
    }
    await runWorkers(this.queue, workers, signal, async (item) => {
      await this.sync(item);
      this.queue.forget(item);
    }, (item, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', item, err: String(err) }));
  }

  async sync(item: string): Promise<void> {
    const [kind, namespace = '', name = '', uid = ''] = item.split('/');
    if (kind === 'sa') return this.deleteTokensOf(namespace, name, uid);
    return this.syncSecret(namespace, name);
  }

  /** A deleted service account takes its token Secrets with it. */
  private async deleteTokensOf(namespace: string, name: string, uid: string): Promise<void> {
    for (const secret of this.secrets.list(namespace)) {
      const a = annotationsOf(secret);
      if (secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE || a[SA_NAME_ANNOTATION] !== name) continue;
      if ((a[SA_UID_ANNOTATION] ?? '') !== '' && a[SA_UID_ANNOTATION] !== uid) continue;
      await this.deleteSecret(secret);
    }
  }

  private async deleteSecret(secret: Secret): Promise<void> {
    try {
      await this.ctx.clientset.resource(SECRETS).delete(namespaceOf(secret), nameOf(secret), { preconditions: { uid: uidOf(secret) } });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  private async serviceAccount(namespace: string, name: string, uid: string): Promise<KubeObject | undefined> {
    const matches = (o: KubeObject | undefined) => o !== undefined && (uid === '' || uidOf(o) === uid);
    const cached = this.serviceAccounts.get(namespace, name);
    if (matches(cached)) return cached;
    // The cache may be behind a create: ask the API server before deleting anything.
    try {
      const live = await this.ctx.clientset.resource(SERVICE_ACCOUNTS).get(namespace, name);
      return matches(live) ? live : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async syncSecret(namespace: string, name: string): Promise<void> {
    const cached: Secret | undefined = this.secrets.get(namespace, name);
    if (!cached || cached.type !== SERVICE_ACCOUNT_TOKEN_TYPE) return;
    const a = annotationsOf(cached);
    const saName = a[SA_NAME_ANNOTATION] ?? '';
    const sa = saName === '' ? undefined : await this.serviceAccount(namespace, saName, a[SA_UID_ANNOTATION] ?? '');
    if (!sa) return this.deleteSecret(cached);
    const data = cached.data ?? {};
    const wantCA = this.opts.rootCA === '' ? undefined : b64(this.opts.rootCA);
    const complete = (data.token ?? '') !== '' && data.namespace === b64(namespace) && (wantCA === undefined || data['ca.crt'] === wantCA) && a[SA_UID_ANNOTATION] === uidOf(sa);
    if (complete) return;
    // Update the live Secret (the cache may be behind); a conflict is retried by the queue.
    const secrets = this.ctx.clientset.resource(SECRETS);
    let live: Secret;
    try {
      live = await secrets.get(namespace, name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const liveData = { ...(live.data ?? {}) };
    if (wantCA !== undefined) liveData['ca.crt'] = wantCA;
    liveData.namespace = b64(namespace);
    if ((liveData.token ?? '') === '') {
      const token = await signToken(legacyClaims({ namespace, name: saName, uid: uidOf(sa) }, name), this.opts.signingKey);
      liveData.token = b64(token);
    }
    const lm = metadataOf(live);
    lm.annotations = { ...annotationsOf(live), [SA_NAME_ANNOTATION]: saName, [SA_UID_ANNOTATION]: uidOf(sa) };
    await secrets.update(namespace, { ...live, data: liveData });
  }
}

/** The PEM text of --root-ca-file, or '' (read once at start; a bad path fails the start). */
export function readRootCA(options: Readonly<Record<string, unknown>>): string {
  const file = stringOption(options, 'rootCaFile');
  return file === '' ? '' : readFileSync(file, 'utf8');
}

export const newTokensController: ControllerConstructor = (ctx) => {
  const keyFile = stringOption(ctx.options, 'serviceAccountPrivateKeyFile');
  if (keyFile === '') return disabledController('serviceaccount-token', ctx, 'there is no private key (--service-account-private-key-file)');
  return new TokensController(ctx, { signingKey: readSigningKey(keyFile), rootCA: readRootCA(ctx.options) });
};
