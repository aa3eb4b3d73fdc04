// admissionregistration.k8s.io/v1 webhook configurations: Kubernetes' defaults, validation
// messages with their field paths, update tolerance, generation, and the table columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findKind } from '../../../api/kinds.js';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, lines, update } from '../kinds.testutil.js';

const hook = (extra: KubeObject = {}): KubeObject => ({
  name: 'check.example.com',
  clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/validate' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const config = (kind: 'Mutating' | 'Validating', ...webhooks: KubeObject[]): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name: 'cfg' }, webhooks,
});
const errorsOf = (...webhooks: KubeObject[]) => lines(create(config('Validating', ...webhooks)).errors);

test('defaults: failurePolicy Fail, matchPolicy Equivalent, empty selectors, timeout 10, scope *, port 443; mutating reinvocation Never', () => {
  const { obj, errors } = create(config('Mutating', hook()));
  assert.deepEqual(lines(errors), []);
  assert.deepEqual((obj.webhooks as KubeObject[])[0], {
    name: 'check.example.com',
    clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/validate', port: 443 } },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    timeoutSeconds: 10,
    reinvocationPolicy: 'Never',
  });
  assert.equal((obj.metadata as KubeObject).generation, 1);
  const validating = create(config('Validating', hook())).obj;
  assert.equal(((validating.webhooks as KubeObject[])[0]!).reinvocationPolicy, undefined);
});

test('webhook names, side effects, timeouts, review versions, uniqueness', () => {
  assert.deepEqual(errorsOf(hook({ name: 'check' })), ['webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots']);
  assert.deepEqual(errorsOf(hook({ name: '' })), ['webhooks[0].name: Required value']);
  assert.deepEqual(errorsOf(hook(), hook()), ['webhooks[1].name: Duplicate value: "check.example.com"']);
  assert.deepEqual(errorsOf(hook({ sideEffects: undefined })), ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
  assert.deepEqual(errorsOf(hook({ sideEffects: 'Some' })), ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
  assert.deepEqual(errorsOf(hook({ timeoutSeconds: 31 })), ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']);
  assert.deepEqual(errorsOf(hook({ failurePolicy: 'Maybe', matchPolicy: 'Loose' })), [
    'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    'webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"',
  ]);
  assert.deepEqual(errorsOf(hook({ admissionReviewVersions: [] })), ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
  assert.deepEqual(errorsOf(hook({ admissionReviewVersions: ['v2', 'v2'] })), [
    'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
    'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
  ]);
});

test('client config: url xor service, https only, no user, query or fragment; service path segments', () => {
  assert.deepEqual(errorsOf(hook({ clientConfig: {} })), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(errorsOf(hook({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'n', name: 's' } } })), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(errorsOf(hook({ clientConfig: { url: 'http://u:p@a.example.com/x?y=1#z' } })), [
    `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "z": fragments are not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "y=1": query parameters are not permitted in the URL',
  ]);
  assert.deepEqual(errorsOf(hook({ clientConfig: { url: 'https:///path' } })), ['webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]']);
  assert.deepEqual(errorsOf(hook({ clientConfig: { url: 'https://hook.example.com:8443/validate' } })), []);
  assert.deepEqual(errorsOf(hook({ clientConfig: { service: { namespace: '', name: '', path: 'x//Y', port: 70000 } } })), [
    'webhooks[0].clientConfig.service.name: Required value: service name is required',
    'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required',
    'webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    `webhooks[0].clientConfig.service.path: Invalid value: "x//Y": must start with a '/'`,
    // Go drops the first character whatever it is: "x//Y" is checked as "//Y".
    'webhooks[0].clientConfig.service.path: Invalid value: "x//Y": segment[0] may not be empty',
    'webhooks[0].clientConfig.service.path: Invalid value: "x//Y": segment[1] may not be empty',
    `webhooks[0].clientConfig.service.path: Invalid value: "x//Y": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
});

test('rules: operations, groups, versions, resources and scope', () => {
  assert.deepEqual(errorsOf(hook({ rules: [{ operations: ['*', 'PATCH'], apiGroups: ['*', 'apps'], apiVersions: [''], resources: ['*', 'pods', 'pods/*', 'pods/log'], scope: 'Global' }] })), [
    `webhooks[0].rules[0].operations: Invalid value: []string{"*", "PATCH"}: if '*' is present, must not specify other operations`,
    'webhooks[0].rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    `webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
    'webhooks[0].rules[0].apiVersions[0]: Required value',
    `webhooks[0].rules[0].resources[3]: Invalid value: "pods/log": if 'pods/*' is present, must not specify pods/log`,
    `webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods", "pods/*", "pods/log"}: if '*' is present, must not specify other resources without subresources`,
    'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
  ]);
  assert.deepEqual(errorsOf(hook({ rules: [{}] })), [
    'webhooks[0].rules[0].operations: Required value',
    'webhooks[0].rules[0].apiGroups: Required value',
    'webhooks[0].rules[0].apiVersions: Required value',
    'webhooks[0].rules[0].resources: Required value',
  ]);
});

test('match conditions: named with qualified unique names, with an expression', () => {
  assert.deepEqual(errorsOf(hook({ matchConditions: [{ name: 'a b', expression: ' ' }, { name: 'ok', expression: 'true' }, { name: 'ok', expression: 'true' }] })), [
    'webhooks[0].matchConditions[0].expression: Required value',
    `webhooks[0].matchConditions[0].name: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'webhooks[0].matchConditions[2].name: Duplicate value: "ok"',
  ]);
});

test('match condition expressions must compile', () => {
  assert.deepEqual(errorsOf(hook({ matchConditions: [{ name: 'm', expression: '1 +' }] })), [
    'webhooks[0].matchConditions[0].expression: Invalid value: "1 +": compilation failed: ERROR: <input>:1:3: Syntax error: found + but expecting end of input\n | 1 +\n | ..^',
  ]);
});

test('update: generation follows webhooks; side effects stored as Some stay allowed', () => {
  const stored = create(config('Validating', hook())).obj;
  (stored.metadata as KubeObject).resourceVersion = '1';
  const relabelled = structuredClone(stored);
  (relabelled.metadata as KubeObject).labels = { a: 'b' };
  assert.equal((update(relabelled, stored).obj.metadata as KubeObject).generation, 1);
  const changed = structuredClone(stored);
  ((changed.webhooks as KubeObject[])[0]!).timeoutSeconds = 5;
  const result = update(changed, stored);
  assert.deepEqual(lines(result.errors), []);
  assert.equal((result.obj.metadata as KubeObject).generation, 2);
  const legacy = structuredClone(stored);
  ((legacy.webhooks as KubeObject[])[0]!).sideEffects = 'Some';
  const next = structuredClone(legacy);
  ((next.webhooks as KubeObject[])[0]!).timeoutSeconds = 7;
  assert.deepEqual(lines(update(next, legacy).errors), []);
  assert.deepEqual(lines(update(legacy, stored).errors), ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
});

test('kubectl get: NAME WEBHOOKS AGE', () => {
  const printer = printerOf(findKind('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration')!);
  assert.deepEqual(printer.columns.map((c) => [c.name, c.type]), [['Name', 'string'], ['Webhooks', 'integer'], ['Age', 'string']]);
  const o = config('Mutating', hook(), hook({ name: 'b.example.com' }));
  (o.metadata as KubeObject).creationTimestamp = '2026-11-22T02:00:00Z';
  assert.deepEqual(printer.cells(o, Date.parse('2026-11-22T02:34:38Z')), ['cfg', 2, '34m']);
});
