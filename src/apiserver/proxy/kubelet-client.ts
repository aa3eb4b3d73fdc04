// How the API server reaches a node's kubelet (kube-apiserver's KubeletClientConfig): HTTPS to
// the node's address and status.daemonEndpoints.kubeletEndpoint.Port, presenting the kubelet
// client certificate (--kubelet-client-certificate/--kubelet-client-key) and verifying the
// kubelet's serving certificate with --kubelet-certificate-authority (unverified without it, as
// kube-apiserver). The address is the first of the node's addresses of the types in
// --kubelet-preferred-address-types.
//
// Simulated nodes' addresses do not exist on the host: every node of a `kubelite nodes` process is
// served by one listener. With --kubelet-address-override (what `kubelite up` passes: 127.0.0.1),
// the API server dials that host instead of the node's address, on the node's kubelet port, and
// names the node in the path: /nodes/<name>/<kubelet path> (src/nodes/kubelet/server.ts).
import { request, Agent, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Node } from '../../api/types.js';
import { nameOf } from '../../api/meta/object.js';
import { StatusError } from '../../machinery/status.js';

export interface KubeletClientOptions {
  clientCert?: string;
  clientKey?: string;
  /** PEM CA of the kubelets' serving certificates; absent: not verified. */
  ca?: string;
  /** Dial this host for every node, naming the node in the path (simulated nodes). */
  addressOverride?: string;
  /** kube-apiserver's default order. */
  preferredAddressTypes?: readonly string[];
}

export const DEFAULT_PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

export interface KubeletLocation {
  host: string;
  port: number;
  /** The path prefix naming the node ('' for a real kubelet). */
  prefix: string;
}

export class KubeletClient {
  private readonly agent: Agent;
  /** For pods/log's insecureSkipTLSVerifyBackend: the same credentials, the kubelet's certificate not verified. */
  private readonly insecureAgent: Agent;

  constructor(private readonly o: KubeletClientOptions) {
    this.agent = new Agent({
      keepAlive: true,
      noDelay: true,
      ...(o.clientCert ? { cert: o.clientCert } : {}),
      ...(o.clientKey ? { key: o.clientKey } : {}),
      ...(o.ca ? { ca: o.ca } : {}),
      rejectUnauthorized: o.ca !== undefined,
    });
    this.insecureAgent = new Agent({ keepAlive: true, noDelay: true, ...(o.clientCert ? { cert: o.clientCert } : {}), ...(o.clientKey ? { key: o.clientKey } : {}), rejectUnauthorized: false });
  }

  /** Where `node`'s kubelet is reached (kube-apiserver's GetConnectionInfo). */
  location(node: Node): KubeletLocation {
    const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
    if (!(port > 0)) throw new StatusError(503, 'ServiceUnavailable', `no kubelet port known for node ${JSON.stringify(nameOf(node))}`);
    if (this.o.addressOverride !== undefined) return { host: this.o.addressOverride, port, prefix: `/nodes/${encodeURIComponent(nameOf(node))}` };
    const addresses = node.status?.addresses ?? [];
    for (const type of this.o.preferredAddressTypes ?? DEFAULT_PREFERRED_ADDRESS_TYPES) {
      const a = addresses.find((x) => x.type === type && x.address);
      if (a?.address) return { host: a.address, port, prefix: '' };
    }
    throw new StatusError(503, 'ServiceUnavailable', `no preferred addresses found; known addresses: ${JSON.stringify(addresses)}`);
  }

  /** Starts a request to the kubelet at `loc` for `path` (with its query); resolves with the response. */
  request(loc: KubeletLocation, path: string, init: { method: string; headers?: Record<string, string | string[]>; body?: NodeJS.ReadableStream; signal: AbortSignal; insecureSkipTLSVerify?: boolean }): Promise<IncomingMessage> {
    const options: RequestOptions = {
      agent: init.insecureSkipTLSVerify ? this.insecureAgent : this.agent,
      host: loc.host,
      port: loc.port,
      method: init.method,
      path: `${loc.prefix}${path}`,
      headers: init.headers ?? {},
      signal: init.signal,
    };
    return new Promise((resolve, reject) => {
      const req = request(options, resolve);
      req.on('error', (e: NodeJS.ErrnoException) => reject(e));
      if (init.body) init.body.pipe(req);
      else req.end();
    });
  }

  /**
   * An upgrade request (exec, attach, port-forward) to the kubelet at `loc`: resolves with the
   * upgraded socket once it answers 101, or with its ordinary response (an error) otherwise.
   */
  upgrade(loc: KubeletLocation, path: string, init: { method: string; headers: Record<string, string | string[]> }): Promise<{ upgraded: { response: IncomingMessage; socket: Duplex; head: Buffer } } | { response: IncomingMessage }> {
    return new Promise((resolve, reject) => {
      // A connection of its own: an upgraded socket leaves the agent's pool.
      const req = request({
        host: loc.host,
        port: loc.port,
        method: init.method,
        path: `${loc.prefix}${path}`,
        headers: init.headers,
        ...(this.o.clientCert ? { cert: this.o.clientCert } : {}),
        ...(this.o.clientKey ? { key: this.o.clientKey } : {}),
        ...(this.o.ca ? { ca: this.o.ca } : {}),
        rejectUnauthorized: this.o.ca !== undefined,
        agent: false,
      });
      req.on('upgrade', (response, socket, head) => resolve({ upgraded: { response, socket, head } }));
      req.on('response', (response) => resolve({ response }));
      req.on('error', (e: NodeJS.ErrnoException) => reject(e));
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
    this.insecureAgent.destroy();
  }
}

/** The 503 of a kubelet (or a backend) the API server could not reach, as kube-apiserver's proxy words it. */
export function unreachable(loc: { host: string; port: number | string }, e: unknown): StatusError {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'ECONNREFUSED' ? 'connect: connection refused' : (e as Error).message;
  const host = loc.host.includes(':') ? `[${loc.host}]` : loc.host;
  return new StatusError(503, 'ServiceUnavailable', `error trying to reach service: dial tcp ${host}:${loc.port}: ${why}`);
}
