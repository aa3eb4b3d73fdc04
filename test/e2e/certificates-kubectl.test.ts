// CertificateSigningRequests through real kubectl against `kubelite apiserver` with RBAC: a request
// made by openssl is created from YAML, recorded with its requestor, approved and denied with
// `kubectl certificate` (the approval subresource), which needs `approve` on the signer; `kubectl
// get csr` shows the conditions, `kubectl explain` the schema.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startApiserver, writeKubeconfig, type RunningApiserver } from '../support/kubelite.js';
import { waitFor } from '../support/wait.js';

const USERS = {
  admin: 'admin-token,admin,100,system:masters',
  approver: 'approver-token,approver,101,',
};

let api: RunningApiserver;
const kc: Record<keyof typeof USERS, string> = { admin: '', approver: '' };

function opensslRequest(cn: string): string {
  return execFileSync('openssl', ['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', '/dev/null', '-subj', `/CN=${cn}/O=dev`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

function csrYaml(name: string, signerName = 'example.com/e2e'): string {
  return `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${Buffer.from(opensslRequest(name)).toString('base64')}
  signerName: ${signerName}
  expirationSeconds: 86400
  usages: ["client auth"]
  username: someone-else
`;
}

describe('CertificateSigningRequests with kubectl', () => {
  before(async () => {
    const tokens = join(process.env.TMPDIR ?? '/tmp', `kubelite-csr-tokens-${process.pid}.csv`);
    writeFileSync(tokens, `${Object.values(USERS).join('\n')}\n`);
    api = await startApiserver(['--storage', 'memory', '--token-auth-file', tokens, '--authorization-mode=RBAC']);
    for (const user of Object.keys(USERS) as Array<keyof typeof USERS>) {
      kc[user] = join(api.dir, `${user}.kubeconfig`);
      writeKubeconfig(kc[user], api.url, { token: `${user}-token` });
    }
  });

  after(async () => {
    await api?.stop();
  });

  it('kubectl create -f of an openssl request records the requestor and shows Pending', async () => {
    const file = join(api.dir, 'alice.yaml');
    writeFileSync(file, csrYaml('alice'));
    assert.match(await kubectlOk(kc.admin, ['create', '-f', file]), /certificatesigningrequest.certificates.k8s.io\/alice created/);
    const csr = JSON.parse(await kubectlOk(kc.admin, ['get', 'csr', 'alice', '-o', 'json']));
    assert.equal(csr.spec.username, 'admin');
    assert.deepEqual(csr.spec.groups, ['system:masters', 'system:authenticated']);
    const table = await kubectlOk(kc.admin, ['get', 'csr']);
    assert.match(table, /^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION\n/);
    assert.match(table, /\nalice\s+\S+\s+example\.com\/e2e\s+admin\s+24h\s+Pending\n/);
  });

  it('refuses a request whose signature does not verify, with Kubernetes\' message', async () => {
    // The last byte of the DER is the signature's: flipped, the request no longer verifies.
    const der = Buffer.from(opensslRequest('mallory').replace(/-----[^-]+-----|\s/g, ''), 'base64');
    der[der.length - 1]! ^= 0xff;
    const pem = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    const r = await kubectl(kc.admin, ['create', '-f', '-'], { input: csrYaml('mallory').replace(/request: .*/, `request: ${Buffer.from(pem).toString('base64')}`) });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The CertificateSigningRequest "mallory" is invalid: spec.request: Invalid value: \[\]byte\{0x2d, .*\}: crypto\/rsa: verification error/);
  });

  it('approval needs approve on the signer; kubectl certificate approve then shows Approved', async () => {
    await kubectlOk(kc.admin, ['create', 'clusterrole', 'csr-approval', '--verb=get,list,update', '--resource=certificatesigningrequests,certificatesigningrequests/approval']);
    await kubectlOk(kc.admin, ['create', 'clusterrolebinding', 'approver-csr', '--clusterrole=csr-approval', '--user=approver']);
    await waitFor(async () => (await kubectl(kc.approver, ['get', 'csr'])).code === 0, 'approver can list csrs');
    const refused = await kubectl(kc.approver, ['certificate', 'approve', 'alice']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /certificatesigningrequests.certificates.k8s.io "alice" is forbidden: user not permitted to approve requests with signerName "example.com\/e2e"/);

    // `signers` is no served resource (kubectl create clusterrole would look it up): a role from YAML.
    await kubectlOk(kc.admin, ['apply', '-f', '-'], {
      input: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: e2e-signer-approver}\nrules:\n- {apiGroups: [certificates.k8s.io], resources: [signers], verbs: [approve], resourceNames: ["example.com/*"]}\n',
    });
    await kubectlOk(kc.admin, ['create', 'clusterrolebinding', 'approver-signer', '--clusterrole=e2e-signer-approver', '--user=approver']);
    await waitFor(async () => (await kubectl(kc.approver, ['certificate', 'approve', 'alice'])).code === 0, 'approver may approve example.com signers');
    assert.match(await kubectlOk(kc.admin, ['get', 'csr', 'alice']), /\nalice\s+.*\s+Approved\n/);
    const described = await kubectlOk(kc.admin, ['describe', 'csr', 'alice']);
    assert.match(described, /Requesting User:\s+admin/);
    assert.match(described, /Signer:\s+example.com\/e2e/);
    assert.match(described, /Status:\s+Approved/);
    assert.match(described, /Common Name:\s+alice/);
    const csr = JSON.parse(await kubectlOk(kc.admin, ['get', 'csr', 'alice', '-o', 'json', '--show-managed-fields']));
    assert.equal(csr.status.conditions[0].type, 'Approved');
    assert.equal(csr.status.conditions[0].reason, 'KubectlApprove');
    assert.ok(csr.status.conditions[0].lastUpdateTime);
    // The approver's write is recorded as its own, under the approval subresource.
    const entry = csr.metadata.managedFields.find((m: { subresource?: string }) => m.subresource === 'approval');
    assert.ok(entry, JSON.stringify(csr.metadata.managedFields));
    assert.ok(entry.fieldsV1['f:status']['f:conditions'], JSON.stringify(entry));
  });

  it('kubectl certificate deny; a denied request cannot then be approved', async () => {
    writeFileSync(join(api.dir, 'bob.yaml'), csrYaml('bob'));
    await kubectlOk(kc.admin, ['create', '-f', join(api.dir, 'bob.yaml')]);
    await kubectlOk(kc.admin, ['certificate', 'deny', 'bob']);
    assert.match(await kubectlOk(kc.admin, ['get', 'csr', 'bob']), /\nbob\s+.*\s+Denied\n/);
    const r = await kubectl(kc.admin, ['certificate', 'approve', 'bob']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /certificate signing request "bob" is already Denied/);
    // An Approved condition PUT to the approval subresource anyway: the server refuses it.
    const bob = JSON.parse(await kubectlOk(kc.admin, ['get', 'csr', 'bob', '-o', 'json']));
    bob.status.conditions.push({ type: 'Approved', status: 'True', reason: 'Forced' });
    const file = join(api.dir, 'bob-approved.json');
    writeFileSync(file, JSON.stringify(bob));
    const forced = await kubectl(kc.admin, ['replace', '--raw', '/apis/certificates.k8s.io/v1/certificatesigningrequests/bob/approval', '-f', file]);
    assert.notEqual(forced.code, 0);
    assert.match(forced.stderr, /The CertificateSigningRequest "bob" is invalid: status.conditions\[1\].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive/);
  });

  it('field selector on spec.signerName, explain, and the spec is immutable', async () => {
    writeFileSync(join(api.dir, 'carol.yaml'), csrYaml('carol', 'other.io/signer'));
    await kubectlOk(kc.admin, ['create', '-f', join(api.dir, 'carol.yaml')]);
    const names = await kubectlOk(kc.admin, ['get', 'csr', '--field-selector', 'spec.signerName=other.io/signer', '-o', 'name']);
    assert.equal(names.trim(), 'certificatesigningrequest.certificates.k8s.io/carol');
    const unsupported = await kubectl(kc.admin, ['get', 'csr', '--field-selector', 'spec.usages=x']);
    assert.match(unsupported.stderr, /field label not supported: spec.usages/);
    const explained = await kubectlOk(kc.admin, ['explain', 'csr.spec']);
    assert.match(explained, /signerName\s+<string> -required-/);
    assert.match(explained, /request\s+<string> -required-/);
    await kubectlOk(kc.admin, ['patch', 'csr', 'carol', '--type=merge', '-p', '{"spec":{"signerName":"x.io/y"},"metadata":{"labels":{"a":"b"}}}']);
    const carol = JSON.parse(await kubectlOk(kc.admin, ['get', 'csr', 'carol', '-o', 'json']));
    assert.equal(carol.spec.signerName, 'other.io/signer');
    assert.deepEqual(carol.metadata.labels, { a: 'b' });
    const resources = await kubectlOk(kc.admin, ['api-resources', '--api-group=certificates.k8s.io']);
    assert.match(resources, /certificatesigningrequests\s+csr\s+certificates.k8s.io\/v1\s+false\s+CertificateSigningRequest/);
    const discovery = JSON.parse(await kubectlOk(kc.admin, ['get', '--raw', '/apis/certificates.k8s.io/v1']));
    const sub = (name: string) => discovery.resources.find((r: { name: string }) => r.name === name);
    assert.deepEqual(sub('certificatesigningrequests/approval').verbs, ['get', 'patch', 'update']);
    assert.deepEqual(sub('certificatesigningrequests/status').verbs, ['get', 'patch', 'update']);
    assert.equal(sub('certificatesigningrequests/approval').namespaced, false);
    await kubectlOk(kc.admin, ['delete', 'csr', 'carol']);
  });
});
