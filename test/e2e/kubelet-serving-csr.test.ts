// The nodes' kubelet API serving certificate comes through the certificates API under `kubelite
// up` (kubelet --rotate-server-certificates): a kubernetes.io/kubelet-serving request of
// system:node:<node>, approved by the agent's approver role, signed by the controller manager's
// csrsigning; the listener then serves exactly that certificate, and the API server (which verifies
// kubelets with the cluster CA) still reaches the nodes through it.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;

function servedCertificate(port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerX509Certificate();
      socket.destroy();
      if (raw) resolve(raw);
      else reject(new Error('no certificate'));
    });
    socket.once('error', reject);
  });
}

describe('kubelite up: the kubelet serving certificate through a CertificateSigningRequest', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2 });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('is requested by a node, approved, issued, and served', async () => {
    const csr = await waitFor(async () => {
      const list = JSON.parse(await kubectlOk(cluster.kubeconfig, ['get', 'csr', '-o', 'json'])) as {
        items: Array<{ metadata: { name: string }; spec: { signerName: string; username: string; usages: string[] }; status?: { certificate?: string; conditions?: Array<{ type: string; reason: string }> } }>;
      };
      return list.items.find((c) => c.spec.signerName === 'kubernetes.io/kubelet-serving' && c.status?.certificate);
    }, 'an issued kubelet serving certificate', 60_000, 200);
    assert.equal(csr.spec.username, 'system:node:kubelite-node-0');
    assert.deepEqual(csr.spec.usages, ['digital signature', 'server auth']);
    assert.deepEqual(csr.status?.conditions?.map((c) => [c.type, c.reason]), [['Approved', 'AutoApproved']]);
    const issued = new X509Certificate(Buffer.from(csr.status!.certificate!, 'base64'));
    assert.equal(issued.subject, 'O=system:nodes\nCN=system:node:kubelite-node-0');
    assert.match(issued.subjectAltName ?? '', /DNS:kubelite-node-1/);
    assert.match(issued.subjectAltName ?? '', /IP Address:127\.0\.0\.1/);
    const port = Number(await kubectlOk(cluster.kubeconfig, ['get', 'node', 'kubelite-node-0', '-o', 'jsonpath={.status.daemonEndpoints.kubeletEndpoint.Port}']));
    await waitFor(async () => (await servedCertificate(port)).serialNumber === issued.serialNumber, 'the listener to serve the issued certificate', 30_000, 100);
    // the API server verifies the kubelet with the cluster CA: logs still come through
    await kubectlOk(cluster.kubeconfig, ['run', 'p', '--image=busybox', '--restart=Never', '--', 'sh', '-c', 'echo through the issued certificate']);
    await waitFor(async () => (await kubectlOk(cluster.kubeconfig, ['logs', 'p']).catch(() => '')).includes('through the issued certificate'), 'the logs', 60_000, 200);
  });
});
