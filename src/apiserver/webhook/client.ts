// Calling a webhook as kube-apiserver does (k8s.io/apiserver pkg/util/webhook): an HTTPS POST of a
// JSON review to `clientConfig.url`, or to a Service (resolved to a ready endpoint of it; the TLS
// server name is `<service>.<namespace>.svc`), trusting `caBundle` (else the system's roots), within
// a timeout; the answer is parsed as JSON. Failures are Errors worded as Kubernetes words them
// (`Post "<url>": ...`), for the callers to wrap (`failed calling webhook "<name>": ...`).
import { Agent, request } from 'node:https';
import { createHash } from 'node:crypto';

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 PEM, as stored. */
  caBundle?: string;
}

/** Where a Service's webhook answers: a ready endpoint address and port (undefined: none). */
export type ServiceResolver = (service: ServiceReference) => Promise<{ host: string; port: number } | undefined>;

/** The largest answer read from a webhook (kube-apiserver limits webhook responses too). */
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

const agents = new Map<string, Agent>();

function agentFor(caBundle: string | undefined): Agent {
  const key = caBundle ? createHash('sha256').update(caBundle).digest('hex') : '';
  let agent = agents.get(key);
  if (!agent) {
    if (agents.size > 256) agents.clear();
    const ca = caBundle ? Buffer.from(caBundle, 'base64').toString('utf8') : undefined;
    agents.set(key, (agent = new Agent({ keepAlive: true, maxSockets: 64, ca })));
  }
  return agent;
}

/** The URL a client config names (services as `https://<name>.<namespace>.svc:<port><path>`). */
export function webhookURL(cc: WebhookClientConfig): string {
  if (cc.url) return cc.url;
  const s = cc.service!;
  return `https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? ''}`;
}

export class WebhookCallError extends Error {}

/** POSTs `body` (JSON) and returns the parsed JSON answer. */
export async function callWebhook(cc: WebhookClientConfig, body: unknown, timeoutMs: number, resolveService: ServiceResolver): Promise<unknown> {
  const shown = webhookURL(cc);
  let target: URL;
  let servername: string | undefined;
  if (cc.url) {
    target = new URL(cc.url);
  } else {
    const s = cc.service!;
    const endpoint = await resolveService(s);
    if (!endpoint) throw new WebhookCallError(`Post "${shown}": service "${s.name}" in namespace "${s.namespace}" has no ready endpoints`);
    target = new URL(`https://${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}${s.path ?? ''}`);
    servername = `${s.name}.${s.namespace}.svc`;
  }
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      reject(new WebhookCallError(`Post "${shown}": ${message}`));
    };
    const req = request(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port === '' ? 443 : Number(target.port),
        path: `${target.pathname}${target.search}` || '/',
        method: 'POST',
        agent: agentFor(cc.caBundle),
        servername: servername ?? (/^[\d.]+$|:/.test(target.hostname) ? undefined : target.hostname),
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) {
            res.destroy();
            fail('the response is too large');
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if (settled) return;
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
            fail(`an error on the server ("${text.slice(0, 200)}") has prevented the request from succeeding`);
            return;
          }
          try {
            settled = true;
            resolve(JSON.parse(text));
          } catch {
            settled = false;
            fail(`the server responded with something that is not JSON: ${JSON.stringify(text.slice(0, 100))}`);
          }
        });
        res.on('error', (err) => fail(err.message));
      },
    );
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      fail('context deadline exceeded');
    });
    req.on('error', (err) => fail(err.message));
    req.end(payload);
  });
}
