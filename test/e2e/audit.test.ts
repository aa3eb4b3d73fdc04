// Audit logging through `kubelite up --audit-policy-file --audit-log-path`: who ran which command
// in which pod (pods/exec at Metadata: user, verb create, objectRef, the 101, the stages of a
// long-running request), a ConfigMap create at RequestResponse (its request and response objects,
// managedFields omitted), a request refused by RBAC (the decision and reason), and the Audit-Id
// header that names each request's events.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

interface AuditEvent {
  auditID: string;
  stage: string;
  level: string;
  verb: string;
  requestURI: string;
  user: { username: string; groups: string[] };
  impersonatedUser?: { username: string };
  objectRef?: { resource: string; namespace?: string; name?: string; subresource?: string; apiVersion: string };
  responseStatus?: { code: number };
  requestObject?: { metadata?: { name?: string; managedFields?: unknown } };
  responseObject?: { metadata?: { name?: string; uid?: string; managedFields?: unknown } };
  annotations?: Record<string, string>;
}

const work = mkdtempSync(join(tmpdir(), 'kubelite-audit-'));
const policyFile = join(work, 'policy.yaml');
const logFile = join(work, 'audit.log');
let cluster: Cluster;

function events(): AuditEvent[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditEvent);
}

describe('kubelite up: audit log', () => {
  before(async () => {
    writeFileSync(
      policyFile,
      [
        'apiVersion: audit.k8s.io/v1',
        'kind: Policy',
        'omitManagedFields: true',
        'rules:',
        '  - level: Metadata',
        '    resources: [{group: "", resources: ["pods/exec"]}]',
        '  - level: RequestResponse',
        '    resources: [{group: "", resources: ["configmaps"]}]',
        '    namespaces: ["audited"]',
        '  - level: Metadata',
        '    users: ["kubernetes-admin"]',
        '    resources: [{group: "", resources: ["secrets"]}]',
        '',
      ].join('\n'),
    );
    cluster = await startCluster({ nodes: 1, args: { apiserver: ['--audit-policy-file', policyFile, '--audit-log-path', logFile] } });
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }) });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('an exec is recorded with who ran it, in which pod, its 101 and the stages of a long-running request', async () => {
    await kubectlOk(cluster.kubeconfig, ['exec', 'web', '--', 'echo', 'audited']);
    const execs = await waitFor(() => {
      const e = events().filter((x) => x.objectRef?.subresource === 'exec');
      return e.some((x) => x.stage === 'ResponseComplete') ? e : undefined;
    }, 'the exec events', 20_000, 50);
    assert.deepEqual(execs.map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.equal(new Set(execs.map((e) => e.auditID)).size, 1);
    const done = execs[2]!;
    assert.equal(done.level, 'Metadata');
    assert.equal(done.verb, 'create');
    assert.equal(done.user.username, 'kubernetes-admin');
    assert.deepEqual(done.objectRef, { resource: 'pods', namespace: 'default', name: 'web', apiVersion: 'v1', subresource: 'exec' });
    assert.match(done.requestURI, /^\/api\/v1\/namespaces\/default\/pods\/web\/exec\?command=echo&command=audited&/);
    assert.equal(done.responseStatus?.code, 101);
    assert.equal(done.annotations?.['authorization.k8s.io/decision'], 'allow');
  });

  it('RequestResponse keeps the request and response objects (without managedFields); the Audit-Id header names the events', async () => {
    await kubectlOk(cluster.kubeconfig, ['create', 'namespace', 'audited']);
    await kubectlOk(cluster.kubeconfig, ['create', 'configmap', 'cm', '-n', 'audited', '--from-literal=k=v']);
    const created = await waitFor(() => events().find((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps' && e.user.username === 'kubernetes-admin' && e.stage === 'ResponseComplete'), 'the create event', 20_000, 50);
    assert.equal(created.level, 'RequestResponse');
    assert.equal(created.requestObject?.metadata?.name, 'cm');
    assert.equal(created.responseObject?.metadata?.name, 'cm');
    assert.ok(created.responseObject?.metadata?.uid);
    assert.equal(created.responseObject?.metadata?.managedFields, undefined);
    assert.equal(created.responseStatus?.code, 201);
    // a request's Audit-Id (as the response header says it) is the auditID of its events
    const r = await kubectl(cluster.kubeconfig, ['get', 'configmap', 'cm', '-n', 'audited', '-v=8']);
    const id = /Audit-Id: ([0-9a-f-]{36})/i.exec(r.stderr)?.[1];
    assert.ok(id, r.stderr);
    await waitFor(() => events().some((e) => e.auditID === id && e.verb === 'get' && e.objectRef?.name === 'cm'), 'the get event with that Audit-Id', 20_000, 50);
  });

  it('a request RBAC refuses: the decision and reason; impersonation names both users', async () => {
    const r = await kubectl(cluster.kubeconfig, ['get', 'secrets', '-n', 'default', '--as', 'mallory']);
    assert.notEqual(r.code, 0);
    const refused = await waitFor(() => events().find((e) => e.impersonatedUser?.username === 'mallory' && e.objectRef?.resource === 'secrets' && e.stage === 'ResponseComplete'), 'the refused list', 20_000, 50);
    assert.equal(refused.user.username, 'kubernetes-admin');
    assert.equal(refused.responseStatus?.code, 403);
    assert.equal(refused.annotations?.['authorization.k8s.io/decision'], 'forbid');
    // requests no rule names are not recorded; the controller's kube-root-ca.crt (a protobuf body) is recorded as JSON
    assert.ok(!events().some((e) => e.objectRef?.resource === 'pods' && e.verb === 'get'));
    const rootCA = events().find((e) => e.verb === 'create' && e.objectRef?.namespace === 'audited' && e.user.username.endsWith(':root-ca-cert-publisher') && e.stage === 'ResponseComplete');
    assert.equal(rootCA?.requestObject?.metadata?.name, 'kube-root-ca.crt');
  });
});
