// The bootstrap signer (kube-controller-manager's pkg/controller/bootstrap/bootstrapsigner.go): the
// `kubeconfig` of the cluster-info ConfigMap in kube-public carries, for every bootstrap token
// allowed to sign (`usage-bootstrap-signing: "true"`, not expired), a detached JWS
// `jws-kubeconfig-<token id>` (HS256 keyed by the token secret, `kid` the token id), so a joining
// node that knows a token can trust the cluster's CA. Signatures of tokens that went are removed.
import { CompactSign } from 'jose';
import { namespaceOf, nameOf } from '../../api/meta/object.js';
import type { ConfigMap } from '../../api/types.js';
import { isConflict, isNotFound } from '../../client/errors.js';
import type { Controller, ControllerContext, KubeObject, Lister, ResourceClient, WorkQueue } from '../../client/types.js';
import { newRateLimitingQueue, runSyncWorkers } from '../../client/workqueue.js';
import { BOOTSTRAP_TOKEN_NAMESPACE, usableBootstrapToken, type BootstrapSecret } from '../../machinery/bootstrap-token.js';
import { SECRETS } from './tokencleaner.js';

export const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO = 'cluster-info';
const SIGNATURE_PREFIX = 'jws-kubeconfig-';
/** One key: every change leads to the same work, signing the one ConfigMap. */
const KEY = `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO}`;

/** jws.ComputeDetachedSignature: the compact JWS with its payload left out (`header..signature`). */
export async function detachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const enc = new TextEncoder();
  const full = await new CompactSign(enc.encode(content)).setProtectedHeader({ alg: 'HS256', kid: tokenId }).sign(enc.encode(tokenSecret));
  const [header, , signature] = full.split('.');
  return `${header}..${signature}`;
}

export class BootstrapSigner implements Controller {
  readonly name = 'bootstrapsigner';
  readonly queue: WorkQueue<string>;
  private readonly configMaps: Lister;
  private readonly secrets: Lister;
  private readonly client: ResourceClient;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = newRateLimitingQueue<string>({ name: 'bootstrap_signer_queue' });
    const configMaps = ctx.informers.informer(CONFIGMAPS);
    const secrets = ctx.informers.informer(SECRETS);
    this.configMaps = configMaps.lister;
    this.secrets = secrets.lister;
    this.client = ctx.clientset.resource(CONFIGMAPS);
    const onConfigMap = (o: KubeObject) => {
      if (namespaceOf(o) === CLUSTER_INFO_NAMESPACE && nameOf(o) === CLUSTER_INFO) this.queue.add(KEY);
    };
    const onSecret = (o: KubeObject) => {
      if (namespaceOf(o) === BOOTSTRAP_TOKEN_NAMESPACE) this.queue.add(KEY);
    };
    configMaps.addEventHandler({ onAdd: onConfigMap, onUpdate: (_o, c) => onConfigMap(c) });
    secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s), onDelete: () => this.queue.add(KEY) });
  }

  run(_workers: number, signal: AbortSignal): Promise<void> {
    this.queue.add(KEY);
    return runSyncWorkers(this.queue, 1, signal, () => this.signConfigMap(), (key, err) => this.ctx.log({ controller: this.name, msg: 'sync failed', key, err: (err as Error).message }));
  }

  /** The tokens allowed to sign, by id. */
  private signingTokens(): Map<string, string> {
    const now = this.ctx.now();
    const out = new Map<string, string>();
    for (const s of this.secrets.list(BOOTSTRAP_TOKEN_NAMESPACE) as BootstrapSecret[]) {
      const token = usableBootstrapToken(s, 'usage-bootstrap-signing', now);
      if (token) out.set(token.id, token.secret);
    }
    return out;
  }

  async signConfigMap(): Promise<void> {
    const current = this.configMaps.get(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO) as ConfigMap | undefined;
    if (!current) return;
    const content = current.data?.kubeconfig;
    if (typeof content !== 'string') return;
    const data: Record<string, string> = {};
    const old = new Map<string, string>();
    for (const [k, v] of Object.entries(current.data ?? {})) {
      if (typeof v !== 'string') continue;
      if (k.startsWith(SIGNATURE_PREFIX)) old.set(k.slice(SIGNATURE_PREFIX.length), v);
      else data[k] = v;
    }
    let changed = false;
    for (const [id, secret] of this.signingTokens()) {
      const sig = await detachedSignature(content, id, secret);
      if (old.get(id) !== sig) changed = true;
      old.delete(id);
      data[SIGNATURE_PREFIX + id] = sig;
    }
    if (old.size > 0) changed = true;
    if (!changed) return;
    try {
      await this.client.update(CLUSTER_INFO_NAMESPACE, { ...current, data } as KubeObject);
    } catch (err) {
      // a newer version is coming through the informer, and with it another round
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
}
