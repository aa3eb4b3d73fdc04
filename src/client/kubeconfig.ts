// Where the API server is and how to authenticate: a kubeconfig file (its current context, or a
// named one) or a `--master` URL. Errors are one-line messages fit for a command line.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';

export interface RestConfig {
  /** https://host:port (no trailing slash; a path prefix is kept). */
  server: string;
  /** PEM bytes of the CA bundle to trust. */
  ca?: Buffer;
  insecureSkipTlsVerify?: boolean;
  /** Bearer token (already read from tokenFile). */
  token?: string;
  /** A token that changes over time (a renewed bound service account token); wins over `token`. */
  tokenSource?: () => string;
  tokenFile?: string;
  clientCert?: Buffer;
  clientKey?: Buffer;
  username?: string;
  password?: string;
  /** TLS server name override (tls-server-name). */
  serverName?: string;
  /** Act as another user (client-go's rest.Config.Impersonate; kubectl --as, --as-group, --as-uid). */
  impersonate?: Impersonation;
}

/**
 * Who a request acts as: sent as the `Impersonate-User`, `Impersonate-Group` (one header each),
 * `Impersonate-Uid` and `Impersonate-Extra-<key>` headers. The API server checks that the
 * authenticated user may `impersonate` each part and then authorizes and admits the request as
 * that user (adding `system:authenticated` to its groups).
 */
export interface Impersonation {
  userName: string;
  groups?: readonly string[];
  uid?: string;
  extra?: Readonly<Record<string, readonly string[]>>;
}

export class KubeconfigError extends Error {
  override name = 'KubeconfigError';
}

type Named<T> = { name?: string } & T;

interface Kubeconfig {
  'current-context'?: string;
  clusters?: Named<{ cluster?: Record<string, unknown> }>[];
  users?: Named<{ user?: Record<string, unknown> }>[];
  contexts?: Named<{ context?: { cluster?: string; user?: string; namespace?: string } }>[];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export interface LoadOptions {
  /** Path of the kubeconfig file. */
  kubeconfig?: string;
  /** `--master`: overrides the kubeconfig's server; alone, an unauthenticated URL. */
  master?: string;
  /** A context other than current-context. */
  context?: string;
}

/** Loads the client configuration as kube-controller-manager does from --kubeconfig and --master. */
export function loadRestConfig(opts: LoadOptions): RestConfig {
  if (!opts.kubeconfig) {
    if (!opts.master) throw new KubeconfigError('neither --kubeconfig nor --master was specified');
    return { server: normalizeServer(opts.master, '--master') };
  }
  let text: string;
  try {
    text = readFileSync(opts.kubeconfig, 'utf8');
  } catch (e) {
    throw new KubeconfigError(`cannot read kubeconfig ${opts.kubeconfig}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const cfg = parseKubeconfig(text, opts.kubeconfig, opts);
  if (opts.master) cfg.server = normalizeServer(opts.master, '--master');
  return cfg;
}

/** Parses kubeconfig YAML; relative file paths resolve against the file's directory. */
export function parseKubeconfig(text: string, path = 'kubeconfig', opts: { context?: string } = {}): RestConfig {
  let doc: Kubeconfig;
  try {
    // Problems become the error below; the parser's warnings (odd tags, directives) are not printed.
    doc = (parse(text, { logLevel: 'error' }) ?? {}) as Kubeconfig;
  } catch (e) {
    throw new KubeconfigError(`invalid kubeconfig ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new KubeconfigError(`invalid kubeconfig ${path}: not a mapping`);
  // client-go refuses a file whose lists are something else (a JSON unmarshal error).
  for (const list of ['clusters', 'users', 'contexts'] as const) {
    const v: unknown = doc[list];
    if (v !== undefined && v !== null && !Array.isArray(v)) throw new KubeconfigError(`invalid kubeconfig ${path}: ${list} is not a list`);
  }
  const base = dirname(path);
  const file = (p: string, what: string): Buffer => {
    const full = isAbsolute(p) ? p : resolve(base, p);
    try {
      return readFileSync(full);
    } catch (e) {
      throw new KubeconfigError(`cannot read ${what} ${full}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  const contextName = opts.context ?? str(doc['current-context']);
  let clusterName: string | undefined;
  let userName: string | undefined;
  if (contextName) {
    const ctx = (doc.contexts ?? []).find((c) => c?.name === contextName);
    if (!ctx) throw new KubeconfigError(`context "${contextName}" not found in ${path}`);
    clusterName = ctx.context?.cluster;
    userName = ctx.context?.user;
  } else if ((doc.clusters ?? []).length === 1) {
    clusterName = doc.clusters![0]?.name;
    if ((doc.users ?? []).length === 1) userName = doc.users![0]?.name;
  } else {
    throw new KubeconfigError(`no current-context in ${path}`);
  }
  const cluster = (doc.clusters ?? []).find((c) => c?.name === clusterName)?.cluster;
  if (!cluster) throw new KubeconfigError(`cluster "${clusterName ?? ''}" not found in ${path}`);
  const server = str(cluster.server);
  if (!server) throw new KubeconfigError(`cluster "${clusterName}" in ${path} has no server`);
  const cfg: RestConfig = { server: normalizeServer(server, `cluster "${clusterName}" server`) };
  const caData = str(cluster['certificate-authority-data']);
  const caFile = str(cluster['certificate-authority']);
  if (caData) cfg.ca = Buffer.from(caData, 'base64');
  else if (caFile) cfg.ca = file(caFile, 'certificate-authority');
  if (cluster['insecure-skip-tls-verify'] === true) cfg.insecureSkipTlsVerify = true;
  const serverName = str(cluster['tls-server-name']);
  if (serverName) cfg.serverName = serverName;
  if (userName !== undefined) {
    const user = (doc.users ?? []).find((u) => u?.name === userName)?.user;
    if (!user) throw new KubeconfigError(`user "${userName}" not found in ${path}`);
    const token = str(user.token);
    const tokenFile = str(user.tokenFile) ?? str(user['token-file']);
    if (token) cfg.token = token;
    else if (tokenFile) {
      cfg.tokenFile = isAbsolute(tokenFile) ? tokenFile : resolve(base, tokenFile);
      cfg.token = file(tokenFile, 'tokenFile').toString('utf8').trim();
    }
    const certData = str(user['client-certificate-data']);
    const certFile = str(user['client-certificate']);
    const keyData = str(user['client-key-data']);
    const keyFile = str(user['client-key']);
    if (certData) cfg.clientCert = Buffer.from(certData, 'base64');
    else if (certFile) cfg.clientCert = file(certFile, 'client-certificate');
    if (keyData) cfg.clientKey = Buffer.from(keyData, 'base64');
    else if (keyFile) cfg.clientKey = file(keyFile, 'client-key');
    if ((cfg.clientCert === undefined) !== (cfg.clientKey === undefined)) {
      throw new KubeconfigError(`user "${userName}" in ${path} has a client certificate without a key or a key without a certificate`);
    }
    const username = str(user.username);
    const password = str(user.password);
    if (username && password) {
      cfg.username = username;
      cfg.password = password;
    }
  }
  return cfg;
}

function normalizeServer(server: string, what: string): string {
  let s = server.trim();
  if (!/^[a-z]+:\/\//i.test(s)) s = `https://${s}`;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new KubeconfigError(`${what}: invalid URL ${JSON.stringify(server)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new KubeconfigError(`${what}: unsupported scheme ${u.protocol.slice(0, -1)} in ${server}`);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}
