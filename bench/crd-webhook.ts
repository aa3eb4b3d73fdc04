// The webhook part of `npm run bench -- crd`: a validating webhook served over HTTPS by this
// process (allows everything, timing its own handling), registered for ConfigMaps in one
// namespace; ConfigMap create latency (p50, 8 sequential-ish clients) in a namespace it does not
// match and in one it does, and the webhook's own time per review.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCA, issueCertificate } from '../src/apiserver/tls/pki.js';
import { expectStatus, send, type Target } from './apiserver.js';
import { quantile } from './report.js';

const CREATES = 400;

async function latencies(t: Target, namespace: string): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < CREATES; i = next++) {
        const t0 = performance.now();
        await expectStatus(send(t, 'POST', `/api/v1/namespaces/${namespace}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { k: 'v' } })), 201, 'create configmap');
        out.push(performance.now() - t0);
      }
    }),
  );
  return out;
}

export async function webhookLatency(t: Target): Promise<{ without: number; with: number; webhookOwn: number }> {
  const ca = await createCA('bench-webhook-ca');
  const serving = await issueCertificate(ca, { commonName: 'webhook', usage: 'server', dnsNames: ['localhost'], ips: ['127.0.0.1'] });
  const own: number[] = [];
  const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const t0 = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
      own.push(performance.now() - t0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    for (const ns of ['plain', 'hooked']) {
      await expectStatus(send(t, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { bench: ns } } })), 201, 'namespace');
    }
    await expectStatus(send(t, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'bench' },
      webhooks: [{
        name: 'bench.example.com',
        clientConfig: { url: `https://127.0.0.1:${port}/validate`, caBundle: Buffer.from(ca.cert).toString('base64') },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        namespaceSelector: { matchLabels: { bench: 'hooked' } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      }],
    })), 201, 'webhook configuration');
    const without = quantile(await latencies(t, 'plain'), 0.5);
    const withHook = quantile(await latencies(t, 'hooked'), 0.5);
    if (own.length < CREATES) throw new Error(`the webhook saw ${own.length} of ${CREATES} creates`);
    return { without, with: withHook, webhookOwn: quantile(own, 0.5) };
  } finally {
    server.close();
  }
}
