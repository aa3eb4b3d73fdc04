// The audit policy: validated as kube-apiserver validates it, the first matching rule decides.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluatePolicy, parseAuditPolicy, type AuditAttributes } from './policy.js';

const POLICY = parseAuditPolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: ["system:kube-proxy"]
  - level: None
    nonResourceURLs: ["/healthz*", "/version"]
  - level: Metadata
    resources: [{group: "", resources: ["pods/exec", "pods/portforward"]}]
  - level: RequestResponse
    resources: [{group: "", resources: ["configmaps"], resourceNames: ["audited"]}]
    omitStages: [ResponseStarted]
  - level: Request
    userGroups: ["system:serviceaccounts"]
    namespaces: ["kube-system"]
  - level: Metadata
    resources: [{group: "apps", resources: ["*/scale"]}]
`);

const attrs = (a: Partial<AuditAttributes>): AuditAttributes => ({ user: 'alice', groups: ['system:authenticated'], verb: 'get', resourceRequest: true, apiGroup: '', resource: 'pods', subresource: '', namespace: 'default', name: 'p', path: '/api/v1/namespaces/default/pods/p', ...a });

test('the first matching rule gives the level; stages omitted by the policy and the rule', () => {
  const cases: Array<[Partial<AuditAttributes>, string]> = [
    [{ user: 'system:kube-proxy', verb: 'create', resource: 'pods', subresource: 'exec' }, 'None'],
    [{ resourceRequest: false, path: '/healthz/ready' }, 'None'],
    [{ resourceRequest: false, path: '/version' }, 'None'],
    // an exact URL, not a prefix: no rule matches `/versions`, which is None too
    [{ resourceRequest: false, path: '/versions' }, 'None'],
    [{ verb: 'create', subresource: 'exec' }, 'Metadata'],
    [{ verb: 'get', subresource: 'log' }, 'None'],
    [{ resource: 'configmaps', name: 'audited' }, 'RequestResponse'],
    [{ resource: 'configmaps', name: 'other' }, 'None'],
    [{ groups: ['system:serviceaccounts', 'system:authenticated'], namespace: 'kube-system', resource: 'secrets' }, 'Request'],
    [{ groups: ['system:serviceaccounts'], namespace: 'default', resource: 'secrets' }, 'None'],
    [{ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }, 'Metadata'],
    [{ apiGroup: 'apps', resource: 'deployments' }, 'None'],
  ];
  for (const [a, level] of cases) assert.equal(evaluatePolicy(POLICY, attrs(a)).level, level, JSON.stringify(a));
  const cm = evaluatePolicy(POLICY, attrs({ resource: 'configmaps', name: 'audited' }));
  assert.deepEqual([...cm.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
});

test('a bad policy is refused with what is wrong', () => {
  const bad: Array<[string, RegExp]> = [
    ['kind: Policy\napiVersion: v1\nrules: [{level: None}]', /expected kind Policy of audit\.k8s\.io\/v1/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: []', /rules: Required value/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: [{level: Everything}]', /rules\[0\]\.level: Unsupported value: "Everything"/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: [{level: None, omitStages: [Later]}]', /rules\[0\]\.omitStages\[0\]: Unsupported value: "Later"/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: [{level: None, nonResourceURLs: ["/a*b"]}]', /must be the final character/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: [{level: None, nonResourceURLs: ["/a"], namespaces: ["x"]}]', /cannot apply to both/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: [{level: None, resources: [{resourceNames: ["x"]}]}]', /resource names require resources/],
    ['a: &a [*a]', /./],
    ['kind: Policy\n---\nkind: Policy', /one document/],
  ];
  for (const [text, re] of bad) assert.throws(() => parseAuditPolicy(text), re, text);
});
