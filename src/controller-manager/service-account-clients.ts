// --use-service-account-credentials: each controller talks to the API server as its own service
// account in kube-system (system:serviceaccount:kube-system:<name>), so RBAC grants it exactly its
// system:controller:<name> role, as kube-controller-manager's SAControllerClientBuilder does. The
// daemon's own credentials create the service account when missing and request a bound token for
// it (TokenRequest); the token is renewed when 80% of its lifetime has passed. Each controller's
// service account is its descriptor's.
import type { RestConfig } from '../client/kubeconfig.js';
import type { Clientset, KubeObject } from '../client/types.js';
import { controllerServiceAccount } from './controllers.js';

export const CONTROLLER_NAMESPACE = 'kube-system';
const SERVICE_ACCOUNTS = { group: '', version: 'v1', resource: 'serviceaccounts' };
const TOKEN_SECONDS = 3600;

export interface ServiceAccountClientsOptions {
  /** The daemon's own clientset (creates service accounts and requests their tokens). */
  root: Clientset;
  /** The connection settings to reuse (server, CA) for the controllers' clientsets. */
  config: RestConfig;
  newClientset(config: RestConfig, name: string): Clientset & { close?(): void };
  log(fields: Record<string, unknown>): void;
  now?: () => number;
}

/** A bearer token that renews itself before it expires; `current()` is what requests send. */
class RenewingToken {
  private token = '';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly request: () => Promise<{ token: string; expiresAt: number }>,
    private readonly onError: (err: unknown) => void,
    private readonly now: () => number,
  ) {}

  async start(): Promise<void> {
    await this.renew();
  }

  current(): string {
    return this.token;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async renew(): Promise<void> {
    const issued = this.now();
    const { token, expiresAt } = await this.request();
    this.token = token;
    this.schedule(Math.max(1_000, (expiresAt - issued) * 0.8));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.renew().catch((err: unknown) => {
        this.onError(err);
        // Keep the old token (it is still valid for a while) and try again soon.
        this.schedule(10_000);
      });
    }, ms);
    this.timer.unref();
  }
}

export class ServiceAccountClients {
  private readonly tokens: RenewingToken[] = [];
  private readonly clientsets: Array<{ close?(): void }> = [];
  private readonly now: () => number;

  constructor(private readonly opts: ServiceAccountClientsOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** The clientset of controller `controller` (its service account's), or undefined if it has none. */
  async clientsetFor(controller: string): Promise<Clientset | undefined> {
    const name = controllerServiceAccount(controller);
    if (name === undefined) return undefined;
    await this.ensureServiceAccount(name);
    const token = new RenewingToken(
      () => this.requestToken(name),
      (err) => this.opts.log({ msg: 'renewing a service account token failed', serviceAccount: name, error: (err as Error).message, level: 'warning' }),
      this.now,
    );
    await token.start();
    this.tokens.push(token);
    // Only the server and its CA carry over: the daemon's own client certificate or token would
    // otherwise authenticate the request before the service account's token is looked at.
    const config: RestConfig = { server: this.opts.config.server, ca: this.opts.config.ca, insecureSkipTlsVerify: this.opts.config.insecureSkipTlsVerify, serverName: this.opts.config.serverName, tokenSource: () => token.current() };
    const clientset = this.opts.newClientset(config, name);
    this.clientsets.push(clientset);
    return clientset;
  }

  close(): void {
    for (const t of this.tokens) t.stop();
    for (const c of this.clientsets) c.close?.();
  }

  /**
   * Creates the service account, which exists already (409) on every start but a cluster's first:
   * asked first, as kube-controller-manager does it from its informer's cache, it would be one
   * request more per controller on that first start (~35 when `kubelite up` makes a cluster).
   */
  private async ensureServiceAccount(name: string): Promise<void> {
    try {
      await this.opts.root.resource(SERVICE_ACCOUNTS).create(CONTROLLER_NAMESPACE, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: CONTROLLER_NAMESPACE } });
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
    }
  }

  private async requestToken(name: string): Promise<{ token: string; expiresAt: number }> {
    const request: KubeObject = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: [], expirationSeconds: TOKEN_SECONDS } };
    const answer = (await this.opts.root.resource(SERVICE_ACCOUNTS).createSubresource(CONTROLLER_NAMESPACE, name, 'token', request)) as {
      status?: { token?: string; expirationTimestamp?: string };
    };
    const token = answer.status?.token;
    if (typeof token !== 'string' || token === '') throw new Error(`the TokenRequest for ${CONTROLLER_NAMESPACE}/${name} returned no token`);
    const expiresAt = Date.parse(answer.status?.expirationTimestamp ?? '');
    return { token, expiresAt: Number.isFinite(expiresAt) ? expiresAt : this.now() + TOKEN_SECONDS * 1000 };
  }
}
