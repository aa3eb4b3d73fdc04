// core/v1 componentstatuses (Kubernetes' pkg/registry/core/componentstatus): on each read, the
// control plane's components are probed — the controller manager and the scheduler at their
// health URLs (HTTP GET: 2xx/3xx is Healthy with the body as message; another code or no answer
// is Unhealthy with why), and the storage (`etcd-0`, whatever the backend) checked directly.
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { ComponentStatus } from '../api/types.js';
import type { Storage } from '../storage/types.js';

/** Where kubelite's components answer /healthz when started with their default ports. */
export const DEFAULT_COMPONENT_HEALTH_URLS: Readonly<Record<string, string>> = {
  scheduler: 'http://127.0.0.1:10251/healthz',
  'controller-manager': 'http://127.0.0.1:10252/healthz',
};

/** How long one probe may take (Kubernetes' probeTimeOut is 20 s; a local component answers at once). */
const PROBE_TIMEOUT_MS = 5_000;
/** The most of a body the message carries (Kubernetes' prober reads at most 10 KiB). */
const MAX_BODY = 10 * 1024;

type Probe = { status: 'True' | 'False' | 'Unknown'; message: string; error: string };

/** What Go's HTTP client says for a failed GET (the prober puts it in the message). */
function goError(url: string, err: NodeJS.ErrnoException & { address?: string; port?: number }): string {
  if (err.code === 'ECONNREFUSED' && err.address !== undefined) {
    const host = err.address.includes(':') ? `[${err.address}]` : err.address;
    return `Get "${url}": dial tcp ${host}:${err.port}: connect: connection refused`;
  }
  if (err.code === 'ETIMEDOUT') return `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
  return `Get "${url}": ${err.message}`;
}

/** httpprober.DoHTTPProbe. */
export function probeHttp(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<Probe> {
  return new Promise((resolve) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (err) {
      resolve({ status: 'Unknown', message: '', error: (err as Error).message });
      return;
    }
    const onResponse = (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => void (body.length < MAX_BODY && (body += d)));
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 400) resolve({ status: 'True', message: body.slice(0, MAX_BODY), error: '' });
        else resolve({ status: 'False', message: `HTTP probe failed with statuscode: ${code}`, error: '' });
      });
      res.on('error', (err) => resolve({ status: 'False', message: goError(url, err), error: '' }));
    };
    // The components' serving certificates are not checked, as Kubernetes' prober does not.
    const req = parsed.protocol === 'https:' ? httpsGet(parsed, { rejectUnauthorized: false, timeout: timeoutMs }, onResponse) : httpGet(parsed, { timeout: timeoutMs }, onResponse);
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err) => resolve({ status: 'False', message: goError(url, err), error: '' }));
  });
}

/** EtcdServer.DoServerCheck: the storage answers a read. */
async function probeStorage(storage: Storage): Promise<Probe> {
  try {
    await storage.currentRevision();
    return { status: 'True', message: 'ok', error: '' };
  } catch (err) {
    return { status: 'False', message: '', error: err instanceof Error ? err.message : String(err) };
  }
}

const statusOf = (name: string, p: Probe): ComponentStatus => ({
  apiVersion: 'v1',
  kind: 'ComponentStatus',
  metadata: { name, creationTimestamp: null },
  conditions: [{ type: 'Healthy', status: p.status, message: p.message, error: p.error }],
});

/** The components a server reports on: its health URLs by name, then its storage as etcd-0. */
export interface ComponentStatuses {
  names(): string[];
  /** All components' statuses, probed at once; or one component's (undefined: no such component). */
  list(): Promise<ComponentStatus[]>;
  get(name: string): Promise<ComponentStatus | undefined>;
}

export function componentStatuses(urls: Readonly<Record<string, string>>, storage: Storage): ComponentStatuses {
  const probe = (name: string): Promise<Probe> => (name === 'etcd-0' ? probeStorage(storage) : probeHttp(urls[name]!));
  const names = () => [...Object.keys(urls), 'etcd-0'];
  return {
    names,
    list: () => Promise.all(names().map(async (n) => statusOf(n, await probe(n)))),
    async get(name) {
      if (!names().includes(name)) return undefined;
      return statusOf(name, await probe(name));
    },
  };
}
