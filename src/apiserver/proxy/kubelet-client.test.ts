// How the API server reaches a kubelet: the address chosen (preferred types, or the override with
// the node in the path), and the serving certificate verified unless insecureSkipTLSVerify.
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { Node } from '../../api/types.js';
import { StatusError } from '../../machinery/status.js';
import { createCA, issueCertificate } from '../tls/pki.js';
import { KubeletClient } from './kubelet-client.js';

const node = (port: number): Node => ({
  metadata: { name: 'n1' },
  status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, { type: 'Hostname', address: 'n1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } },
});

test('the kubelet location: preferred address types, or the override naming the node in the path', () => {
  assert.deepEqual(new KubeletClient({}).location(node(10250)), { host: 'n1', port: 10250, prefix: '' });
  assert.deepEqual(new KubeletClient({ preferredAddressTypes: ['InternalIP'] }).location(node(10250)), { host: '10.0.0.2', port: 10250, prefix: '' });
  assert.deepEqual(new KubeletClient({ addressOverride: '127.0.0.1' }).location(node(4321)), { host: '127.0.0.1', port: 4321, prefix: '/nodes/n1' });
  assert.throws(() => new KubeletClient({ preferredAddressTypes: ['ExternalIP'] }).location(node(10250)), (e: unknown) => e instanceof StatusError && e.code === 503 && /no preferred addresses found/.test(e.message));
  assert.throws(() => new KubeletClient({}).location(node(0)), (e: unknown) => e instanceof StatusError && /no kubelet port known for node "n1"/.test(e.message));
});

test('the serving certificate is verified with the CA, unless the request skips it', async () => {
  const trusted = await createCA('trusted');
  const other = await createCA('other');
  const serving = await issueCertificate(other, { commonName: 'kubelet', usage: 'server', ips: ['127.0.0.1'] });
  const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => res.end(`saw ${req.url}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const client = new KubeletClient({ ca: trusted.cert, addressOverride: '127.0.0.1' });
  try {
    const loc = client.location(node(port));
    await assert.rejects(client.request(loc, '/healthz', { method: 'GET', signal: new AbortController().signal }), /self.signed|unable to verify|certificate/i);
    const res = await client.request(loc, '/healthz', { method: 'GET', signal: new AbortController().signal, insecureSkipTLSVerify: true });
    let body = '';
    for await (const chunk of res) body += String(chunk);
    assert.equal(body, 'saw /nodes/n1/healthz');
  } finally {
    client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
