// flowcontrol.apiserver.k8s.io and apiregistration.k8s.io through real kubectl: the APF
// configuration and the local APIServices the server creates at start, a FlowSchema, a
// PriorityLevelConfiguration and an aggregated APIService created, applied, listed, explained and
// deleted. (The bootstrap's restoring of mandatory objects: src/apiserver/bootstrap-apf.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';

let api: RunningApiserver;
const k = (args: string[], input?: string) => kubectlOk(api.kubeconfig, args, input === undefined ? {} : { input });

const OBJECTS = `
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: e2e-level}
spec:
  type: Limited
  limited: {limitResponse: {type: Queue, queuing: {queues: 16}}}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: e2e-schema}
spec:
  priorityLevelConfiguration: {name: e2e-level}
  distinguisherMethod: {type: ByNamespace}
  rules:
  - subjects: [{kind: Group, group: {name: e2e}}]
    resourceRules: [{verbs: [get, list], apiGroups: [""], resources: [pods], namespaces: ["*"]}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.custom.example.com}
spec:
  group: custom.example.com
  version: v1beta1
  groupPriorityMinimum: 1000
  versionPriority: 15
  service: {namespace: default, name: custom-api}
`;

describe('flow control and API services through kubectl', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
  });
  after(async () => {
    await api?.stop();
  });

  it('kubectl get flowschemas / prioritylevelconfigurations: the bootstrap configuration', async () => {
    const fs = await k(['get', 'flowschemas']);
    assert.match(fs, /^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL$/m);
    assert.match(fs, /^exempt\s+exempt\s+1\s+<none>\s+\S+\s+\?$/m);
    assert.match(fs, /^catch-all\s+catch-all\s+10000\s+ByUser\s+\S+\s+\?$/m);
    assert.match(fs, /^kube-system-service-accounts\s+workload-high\s+900\s+ByNamespace\s/m);
    assert.equal(fs.trim().split('\n').length, 1 + 13);
    const pl = await k(['get', 'prioritylevelconfigurations']);
    assert.match(pl, /^NAME\s+TYPE\s+NOMINALCONCURRENCYSHARES\s+QUEUES\s+HANDSIZE\s+QUEUELENGTHLIMIT\s+AGE$/m);
    assert.match(pl, /^exempt\s+Exempt\s+<none>\s+<none>\s+<none>\s+<none>\s/m);
    assert.match(pl, /^workload-low\s+Limited\s+100\s+128\s+6\s+50\s/m);
    assert.equal(pl.trim().split('\n').length, 1 + 8);
    const annotation = await k(['get', 'flowschema', 'probes', '-o', 'jsonpath={.metadata.annotations.apf\\.kubernetes\\.io/autoupdate-spec}']);
    assert.equal(annotation, 'true');
  });

  it('kubectl get apiservices: every served group version, Local and True', async () => {
    const out = await k(['get', 'apiservices']);
    assert.match(out, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/m);
    for (const name of ['v1.', 'v1.apps', 'v1.batch', 'v1.rbac.authorization.k8s.io', 'v1.flowcontrol.apiserver.k8s.io', 'v1.apiregistration.k8s.io', 'v1beta1.metrics.k8s.io']) {
      assert.match(out, new RegExp(`^${name.replace(/\./g, '\\.')}\\s+Local\\s+True\\s`, 'm'), name);
    }
    const spec = JSON.parse(await k(['get', 'apiservice', 'v1.apps', '-o', 'json'])).spec;
    assert.deepEqual(spec, { group: 'apps', groupPriorityMinimum: 17800, service: null, version: 'v1', versionPriority: 15 });
  });

  it('create, apply, list, explain and delete; an aggregated APIService is accepted but not available', async () => {
    await k(['create', '-f', '-'], OBJECTS);
    const pl = JSON.parse(await k(['get', 'prioritylevelconfiguration', 'e2e-level', '-o', 'json']));
    assert.deepEqual(pl.spec.limited, { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 8, queueLengthLimit: 50 } } });
    assert.equal(pl.metadata.generation, 1);
    const fs = JSON.parse(await k(['get', 'flowschema', 'e2e-schema', '-o', 'json']));
    assert.equal(fs.spec.matchingPrecedence, 1000);
    assert.match(await k(['get', 'apiservice', 'v1beta1.custom.example.com']), /^v1beta1\.custom\.example\.com\s+default\/custom-api\s+False \(ServiceNotServed\)\s/m);
    // apply: a spec change bumps the generation.
    await k(['apply', '-f', '-'], OBJECTS.replace('queues: 16', 'queues: 32'));
    const applied = JSON.parse(await k(['get', 'prioritylevelconfiguration', 'e2e-level', '-o', 'json']));
    assert.equal(applied.spec.limited.limitResponse.queuing.queues, 32);
    assert.equal(applied.metadata.generation, 2);
    // Validation, as Kubernetes words it.
    const bad = await kubectl(api.kubeconfig, ['patch', 'flowschema', 'e2e-schema', '--type=merge', '-p', '{"spec":{"matchingPrecedence":1}}']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1/);
    const fixed = await kubectl(api.kubeconfig, ['patch', 'prioritylevelconfiguration', 'catch-all', '--type=merge', '-p', '{"spec":{"limited":{"nominalConcurrencyShares":50}}}']);
    assert.match(fixed.stderr, /spec of 'catch-all' must equal the fixed value/);
    const named = await kubectl(api.kubeconfig, ['create', '-f', '-'], { input: OBJECTS.split('---')[2]!.replace('name: v1beta1.custom.example.com', 'name: wrong') });
    assert.match(named.stderr, /metadata\.name: Invalid value: "wrong": must be `spec\.version\+"\."\+spec\.group`: "v1beta1\.custom\.example\.com"/);
    for (const [resource, field] of [['flowschemas', 'priorityLevelConfiguration'], ['prioritylevelconfigurations', 'limited'], ['apiservices', 'groupPriorityMinimum']] as const) {
      assert.match(await k(['explain', `${resource}.spec`]), new RegExp(field), resource);
    }
    await k(['delete', '-f', '-'], OBJECTS);
    assert.doesNotMatch(await k(['get', 'flowschemas,prioritylevelconfigurations,apiservices', '-o', 'name']), /e2e-|custom\.example/);
  });
});
