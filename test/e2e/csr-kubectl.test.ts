// Certificate signing requests on `kubelite up` (whose controller manager signs with the cluster CA,
// as kubeadm configures it), through kubectl: a request for the kube-apiserver-client signer is
// approved with `kubectl certificate approve`, signed, and the certificate authenticates its
// subject; a request the signer refuses is Failed with the signer's reason.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { certificateRequestPem } from '../../src/machinery/x509/csr.testutil.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, args, { input });

function csrYaml(name: string, pem: string, usages: string[]): string {
  return JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec: { request: Buffer.from(pem).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages, expirationSeconds: 86400 } });
}

describe('kubelite up: CertificateSigningRequests', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 0 });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('an approved client request is signed and its certificate authenticates; a refused one fails', async () => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    await k(['apply', '-f', '-'], csrYaml('alice', certificateRequestPem('alice', { organization: 'devs', keys }), ['client auth', 'digital signature']));
    assert.match(await k(['get', 'csr', 'alice']), /alice\s+\S+\s+kubernetes.io\/kube-apiserver-client\s+\S+\s+24h\s+Pending/);
    await k(['certificate', 'approve', 'alice']);
    let certificate = '';
    await waitFor(async () => {
      certificate = (await k(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}'])).trim();
      return certificate !== '';
    }, 'the certificate issued', 30_000);
    assert.match(await k(['get', 'csr', 'alice']), /Approved,Issued/);
    const dir = cluster.dataDir;
    writeFileSync(join(dir, 'alice.crt'), Buffer.from(certificate, 'base64'));
    writeFileSync(join(dir, 'alice.key'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const ca = (parse(readFileSync(cluster.kubeconfig, 'utf8')) as { clusters: { cluster: { 'certificate-authority-data': string } }[] }).clusters[0]!.cluster['certificate-authority-data'];
    writeFileSync(join(dir, 'ca.crt'), Buffer.from(ca, 'base64'));
    const empty = join(dir, 'alice.kubeconfig');
    writeFileSync(empty, 'apiVersion: v1\nkind: Config\n');
    const who = await kubectl(empty, ['--server', cluster.server, '--certificate-authority', join(dir, 'ca.crt'), '--client-certificate', join(dir, 'alice.crt'), '--client-key', join(dir, 'alice.key'), 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    assert.equal(who.code, 0, who.stderr);
    assert.equal(who.stdout, 'alice ["devs","system:authenticated"]');

    await k(['apply', '-f', '-'], csrYaml('server', certificateRequestPem('srv'), ['server auth', 'digital signature']));
    await k(['certificate', 'approve', 'server']);
    await waitFor(async () => /Approved,Failed/.test(await k(['get', 'csr', 'server'])), 'the request failed', 30_000);
    assert.equal(await k(['get', 'csr', 'server', '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].message}']), 'invalid usage for client certificate: server auth');
  });
});
