// `kubelite apiserver`: the API server alone, until SIGINT/SIGTERM.
import { acceptProcessPodRange } from '../registry/kinds/core/endpoints.js';
import { InvalidArgumentError } from 'commander';
import { startApiServer } from '../apiserver/server.js';
import { controllerRoles } from '../controller-manager/controllers.js';
import { parseDuration } from '../machinery/codec/time.js';
import { parseEtcdServers } from '../storage/open.js';
import { parseChoice, parseOrExit, parsePort, program } from '../machinery/flags.js';
import { limitHeapGrowth } from './heap-growth.js';
import { capYoungGeneration } from './young-generation.js';
import type { Authenticator } from '../apiserver/auth/types.js';
import { TokenFileAuthenticator } from '../apiserver/auth/token-file.js';
import { parseAuthorizationModes, type AuthorizationMode } from '../apiserver/auth/modes.js';
import { X509Authenticator } from '../apiserver/auth/x509.js';
import { ensureServingPki, servingNames } from '../apiserver/tls/pki.js';
import type { TlsOptions } from '../apiserver/tls/serve.js';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { join } from 'node:path';
import { jsonLog, processContext, type ComponentContext } from '../machinery/component-context.js';
import { DEFAULT_ADMISSION_PLUGINS, enabledAdmissionPlugins, type AdmissionPluginName } from '../apiserver/admission/index.js';
import { serviceAccountTokenOptions, type ServiceAccountFlags } from './apiserver-serviceaccount.js';
import { KUBELET_FLAGS, kubeletClientOptions, type KubeletFlags } from './apiserver-kubelet.js';
import { AUDIT_FLAGS, auditOptions, type AuditFlags } from './apiserver-audit.js';
import { PEER_FLAGS, peerOptions, type PeerFlags } from './apiserver-peers.js';
import { readBootstrapPolicy } from './apiserver-bootstrap-policy.js';
import type { DeploymentPolicy } from '../apiserver/auth/rbac/reconcile.js';

export async function apiserverMain(argv: string[], ctx: ComponentContext = processContext()): Promise<number> {
  const cmd = program('apiserver', 'Serve the Kubernetes Workload Resource API (HTTPS) over embedded or etcd storage.', ctx)
    .option('--storage <backend>', 'storage backend: lmdb (embedded, durable), memory or etcd', parseChoice(['lmdb', 'memory', 'etcd'] as const), 'lmdb')
    .option('--data-dir <dir>', 'directory of the lmdb database and of the generated certificates (pki/)', './.kubelite')
    .option('--etcd-servers <urls>', 'comma-separated etcd client URLs (with --storage etcd)', (v: string) => {
      try {
        return parseEtcdServers(v);
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
    })
    .option('--bind-address <ip>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 6443)
    .option('--storage-history <duration>', 'how long watch history and list snapshots are kept; continue tokens expire with them (default: 5m0s)', parseDurationMs)
    .option('--storage-history-revisions <n>', 'the newest this-many changes are kept whatever their age', parseCount, 1000)
    .option('--tls-cert-file <file>', 'PEM serving certificate (chain); default: one signed by the CA in <data-dir>/pki, made on first start')
    .option('--tls-private-key-file <file>', 'PEM private key of --tls-cert-file')
    .option('--client-ca-file <file>', 'PEM CA bundle for client certificates (CN = user, O = groups); default: the CA in <data-dir>/pki when the serving certificate is generated')
    .option('--token-auth-file <file>', 'static bearer tokens, CSV lines token,user,uid,"group1,group2"')
    .option('--enable-bootstrap-token-auth', 'bootstrap token Secrets (type bootstrap.kubernetes.io/token in kube-system) authenticate as system:bootstrap:<id>')
    .option('--anonymous-auth <bool>', 'requests without credentials are system:anonymous (else 401)', parseBoolFlag, true)
    .option('--max-requests-inflight <n>', 'read-only requests served at once; beyond: 429 (0: no limit)', parseLimit, 400)
    .option('--max-mutating-requests-inflight <n>', 'mutating requests served at once; beyond: 429 (0: no limit)', parseLimit, 200)
    .option('--enable-priority-and-fairness <bool>', 'requests over the two limits together wait in a queue (up to 15 s) rather than being refused at once with 429', parseBoolFlag, true)
    .option('--authorization-mode <modes>', 'ordered comma list of authorizers: RBAC, Node, AlwaysAllow, AlwaysDeny (the first that allows or denies decides)', parseModes, ['RBAC'] as AuthorizationMode[])
    .option('--bootstrap-policy-file <file>', 'ClusterRoles and ClusterRoleBindings (a YAML or JSON List) kept as given beside the default policy with RBAC, in place before the server is ready')
    .option('--service-account-issuer <url>', 'issuer of service account tokens (repeatable: the first signs, all are accepted; default https://kubernetes.default.svc.cluster.local)', collect, [])
    .option('--service-account-signing-key-file <file>', 'PEM private key (RSA or ECDSA) that signs service account tokens (default: <data-dir>/pki/sa.key, created on first start)')
    .option('--service-account-key-file <file>', 'PEM file of public or private keys that verify service account tokens (repeatable)', collect, [])
    .option('--api-audiences <list>', 'comma-separated audiences of the API (default: the issuers)', (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter((x) => x !== '')])
    .option('--service-account-max-token-expiration <duration>', 'longest validity a TokenRequest gets (default: no limit)', parseDurationMs)
    .option('--service-account-extend-token-expiration <bool>', 'pod-bound tokens of the projected volume are valid a year and warn after an hour', parseBoolFlag, true)
    .option('--component-health-url <name=url>', 'a component componentstatuses reports, by the URL of its /healthz (repeatable; default scheduler=http://127.0.0.1:10251/healthz and controller-manager=http://127.0.0.1:10252/healthz); the storage is reported as etcd-0', collect, [])
    .option('--enable-admission-plugins <list>', `admission plugins to enable besides the default ones (${DEFAULT_ADMISSION_PLUGINS.join(', ')})`, (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter((x) => x !== '')])
    .option('--disable-admission-plugins <list>', 'admission plugins to disable', (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter((x) => x !== '')]);
  for (const [flag, help, parse] of [...KUBELET_FLAGS, ...AUDIT_FLAGS]) {
    if (parse) cmd.option(flag, help, parse);
    else cmd.option(flag, help);
  }
  for (const [flag, help, parse, def] of PEER_FLAGS) cmd.option(flag, help, parse, def);
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<{
    storage: 'lmdb' | 'memory' | 'etcd';
    dataDir: string;
    etcdServers?: string[];
    bindAddress: string;
    port: number;
    storageHistory?: number;
    storageHistoryRevisions: number;
    tlsCertFile?: string;
    tlsPrivateKeyFile?: string;
    clientCaFile?: string;
    tokenAuthFile?: string;
    enableBootstrapTokenAuth?: boolean;
    anonymousAuth: boolean;
    authorizationMode: AuthorizationMode[];
    bootstrapPolicyFile?: string;
    maxRequestsInflight: number;
    maxMutatingRequestsInflight: number;
    enablePriorityAndFairness: boolean;
    enableAdmissionPlugins?: string[];
    disableAdmissionPlugins?: string[];
    componentHealthUrl: string[];
  } & ServiceAccountFlags & KubeletFlags & AuditFlags & PeerFlags>();
  if (o.storage === 'etcd' && !o.etcdServers) {
    ctx.stderr('kubelite apiserver: --storage etcd needs --etcd-servers\n');
    return 2;
  }
  if ((o.tlsCertFile === undefined) !== (o.tlsPrivateKeyFile === undefined)) {
    ctx.stderr('kubelite apiserver: --tls-cert-file and --tls-private-key-file go together\n');
    return 2;
  }
  let tls: TlsOptions;
  try {
    tls = await servingTls(o);
  } catch (err) {
    ctx.stderr(`kubelite apiserver: ${(err as Error).message}\n`);
    return 2;
  }
  // Client certificates first, then tokens, as kube-apiserver's union authenticator.
  const authenticators: Authenticator[] = tls.clientCA === undefined ? [] : [new X509Authenticator()];
  if (o.tokenAuthFile !== undefined) {
    try {
      authenticators.push(TokenFileAuthenticator.fromFile(o.tokenAuthFile));
    } catch (err) {
      ctx.stderr(`kubelite apiserver: --token-auth-file: ${(err as Error).message}\n`);
      return 2;
    }
  }
  let admissionPlugins: AdmissionPluginName[];
  let serviceAccountTokens: ReturnType<typeof serviceAccountTokenOptions>;
  let componentHealthURLs: Record<string, string> | undefined;
  let kubelet: ReturnType<typeof kubeletClientOptions>;
  let audit: ReturnType<typeof auditOptions>;
  let bootstrapPolicy: DeploymentPolicy | undefined;
  try {
    bootstrapPolicy = o.bootstrapPolicyFile === undefined ? undefined : readBootstrapPolicy(o.bootstrapPolicyFile);
    audit = auditOptions(o);
    kubelet = kubeletClientOptions(o);
    acceptProcessPodRange(o.processPodCidr);
    admissionPlugins = enabledAdmissionPlugins(o.enableAdmissionPlugins, o.disableAdmissionPlugins);
    componentHealthURLs = parseComponentHealthURLs(o.componentHealthUrl);
    serviceAccountTokens = serviceAccountTokenOptions(o, o.dataDir);
  } catch (err) {
    ctx.stderr(`kubelite apiserver: ${(err as Error).message}\n`);
    return 2;
  }
  // 16 MB of young generation instead of V8's 32 (see young-generation.ts), and garbage in the old
  // generation kept to half the live heap or 64 MiB, whichever is more (see heap-growth.ts). Both are V8 flags of the whole
  // process: on a worker thread of a single-process cluster they would make every component's
  // heap collect more often (+17–20% CPU per create for the cluster in bench/NOTES.md, session 15)
  // for ~10 MiB less, so they are set only where the API server has its process to itself (not on
  // a worker thread nor in a single-process cluster's shared event loop).
  if (ctx.ownsProcess) {
    capYoungGeneration(16 * 1024 * 1024);
    limitHeapGrowth(50, 64 * 1024 * 1024);
  }
  const server = await startApiServer({
    storage: o.storage,
    dataDir: o.dataDir,
    etcdServers: o.etcdServers,
    bindAddress: o.bindAddress,
    port: o.port,
    authentication: { authenticators, anonymous: o.anonymousAuth },
    tls,
    inflight: { readOnly: o.maxRequestsInflight, mutating: o.maxMutatingRequestsInflight, priorityAndFairness: o.enablePriorityAndFairness },
    authorizationModes: o.authorizationMode,
    controllerRoles: controllerRoles(),
    ...(bootstrapPolicy ? { bootstrapPolicy } : {}),
    serviceAccountTokens,
    bootstrapTokenAuth: o.enableBootstrapTokenAuth === true,
    admissionPlugins,
    componentHealthURLs,
    kubelet,
    ...(audit ? { audit } : {}),
    peers: peerOptions(o, o.bindAddress),
    history: { minAgeMs: o.storageHistory ?? 5 * 60_000, minRevisions: o.storageHistoryRevisions },
    log: jsonLog(ctx, 'apiserver'),
  });
  ctx.stdout(`ready: server=${server.url}\n`);
  await ctx.stopRequested();
  await server.close();
  return 0;
}

/**
 * The serving certificate and client CA: the user's files, or the CA and serving certificate in
 * <data-dir>/pki (made on first start, reused after; the generated CA also signs client
 * certificates unless --client-ca-file names another).
 */
async function servingTls(o: { dataDir: string; bindAddress: string; tlsCertFile?: string; tlsPrivateKeyFile?: string; clientCaFile?: string }): Promise<TlsOptions> {
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`${flag}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const clientCA = o.clientCaFile === undefined ? undefined : read('--client-ca-file', o.clientCaFile);
  let tls: TlsOptions;
  if (o.tlsCertFile !== undefined && o.tlsPrivateKeyFile !== undefined) {
    tls = { cert: read('--tls-cert-file', o.tlsCertFile), key: read('--tls-private-key-file', o.tlsPrivateKeyFile), clientCA };
  } else {
    const pki = await ensureServingPki(join(o.dataDir, 'pki'), servingNames(o.bindAddress));
    tls = { cert: pki.serving.cert, key: pki.serving.key, clientCA: clientCA ?? pki.ca.cert };
  }
  // A certificate, key or CA that OpenSSL cannot use is a bad flag, said before anything starts.
  try {
    createSecureContext({ cert: tls.cert, key: tls.key, ca: tls.clientCA });
  } catch (err) {
    throw new Error(`the serving certificate, its key or the client CA cannot be used: ${(err as Error).message}`);
  }
  return tls;
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer');
  return n;
}

/** A Go duration (`30s`, `5m0s`, `1h`) in milliseconds, at least one second. */
function parseDurationMs(value: string): number {
  let ns: bigint;
  try {
    ns = parseDuration(value);
  } catch {
    throw new InvalidArgumentError('must be a duration such as 30s, 5m0s or 1h');
  }
  const ms = Number(ns / 1_000_000n);
  if (ms < 1000) throw new InvalidArgumentError('must be at least 1s');
  return ms;
}

/** --component-health-url name=url (repeatable), in the order given; none: the default components. */
export function parseComponentHealthURLs(values: readonly string[]): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf('=');
    const name = i > 0 ? v.slice(0, i) : '';
    const url = i > 0 ? v.slice(i + 1) : '';
    if (name === '' || !/^https?:\/\//.test(url)) throw new Error(`--component-health-url ${JSON.stringify(v)}: want <name>=<http or https URL>`);
    out[name] = url;
  }
  return out;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function parseBoolFlag(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('must be true or false');
}

function parseModes(value: string): AuthorizationMode[] {
  try {
    return parseAuthorizationModes(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
