// CustomResourceDefinitions through kubectl and plain HTTP against `kubelite apiserver`: a CRD is
// served at once (Established), its custom resources answer CRUD, list/watch with selectors,
// patches (merge and JSON; strategic is 415), the status and scale subresources, the Table of its
// printer columns, short names and categories; a second CRD claiming the same names is refused;
// protobuf is refused as Kubernetes refuses it; deleting the CRD deletes its custom resources.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, warnings, WatchStream } from '../support/http.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let api: RunningApiserver;
let http: Client;
const k = (args: string[], input?: string) => kubectlOk(api.kubeconfig, args, input === undefined ? {} : { input });

export const CRONTAB_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
              replicas: {type: integer, minimum: 0}
          status:
            type: object
            properties:
              replicas: {type: integer}
              selector: {type: string}
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
        labelSelectorPath: .status.selector
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1}
    selectableFields:
    - jsonPath: .spec.cronSpec
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`;

const crontab = (name: string, cronSpec: string, replicas: number, labels: Record<string, string> = {}) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: ${name}, namespace: default, labels: ${JSON.stringify(labels)}}
spec: {cronSpec: "${cronSpec}", image: my-image, replicas: ${replicas}}
`;

const BASE = '/apis/stable.example.com/v1/namespaces/default/crontabs';

describe('custom resources through kubectl', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    http = new Client(api.url);
    await kubectl(api.kubeconfig, ['create', 'namespace', 'default']);
    await k(['apply', '-f', '-'], CRONTAB_CRD);
    await k(['wait', '--for', 'condition=Established', '--timeout', '10s', 'crd/crontabs.stable.example.com']);
  });
  after(async () => {
    await api?.stop();
  });

  it('a new CRD is Established with its names accepted, and its resource is in discovery', async () => {
    const crd = JSON.parse(await k(['get', 'crd', 'crontabs.stable.example.com', '-o', 'json']));
    const conditions = Object.fromEntries(crd.status.conditions.map((c: any) => [c.type, [c.status, c.reason]]));
    assert.deepEqual(conditions, { NamesAccepted: ['True', 'NoConflicts'], Established: ['True', 'InitialNamesAccepted'] });
    assert.deepEqual(crd.status.acceptedNames, { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'], categories: ['all'] });
    const resources = await k(['api-resources', '--api-group', 'stable.example.com', '-o', 'wide']);
    assert.match(resources, /^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab\s+create,delete,deletecollection,get,list,patch,update,watch\s+all$/m);
    const list = (await http.get('/apis/stable.example.com/v1')).json;
    assert.deepEqual(list.resources.map((r: any) => r.name).sort(), ['crontabs', 'crontabs/scale', 'crontabs/status']);
  });

  it('create, get with the printer columns (wide too), short name, category, label and field selectors', async () => {
    await k(['create', '-f', '-'], crontab('every-five', '*/5 * * * *', 1, { app: 'a' }));
    await k(['create', '-f', '-'], crontab('hourly', '0 * * * *', 2, { app: 'b' }));
    const table = await k(['get', 'crontabs']);
    assert.match(table, /^NAME\s+SPEC\s+REPLICAS$/m);
    assert.match(table, /^every-five\s+\*\/5 \* \* \* \*\s+1$/m);
    assert.match(await k(['get', 'ct', '-o', 'wide']), /^NAME\s+SPEC\s+REPLICAS\s+READY$/m);
    assert.match(await k(['get', 'all']), /crontab\.stable\.example\.com\/hourly/);
    assert.deepEqual((await k(['get', 'ct', '-l', 'app=b', '-o', 'name'])).trim().split('\n'), ['crontab.stable.example.com/hourly']);
    assert.deepEqual((await k(['get', 'ct', '--field-selector', 'spec.cronSpec=0 * * * *', '-o', 'name'])).trim().split('\n'), ['crontab.stable.example.com/hourly']);
    const bad = await kubectl(api.kubeconfig, ['get', 'ct', '--field-selector', 'spec.image=x']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /"spec\.image" is not a known field selector: only "metadata\.name", "metadata\.namespace"/);
    const obj = (await http.get(`${BASE}/every-five`)).json;
    assert.equal(obj.metadata.generation, 1);
    assert.equal(obj.apiVersion, 'stable.example.com/v1');
  });

  it('the schema: invalid values are refused with Kubernetes\' messages; unknown fields are pruned with a warning, refused when strict', async () => {
    const bad = await kubectl(api.kubeconfig, ['create', '-f', '-'], { input: crontab('negative', '* * * * *', -1) });
    assert.notEqual(bad.code, 0);
    // The schema's rule and the scale subresource's own check, both, as Kubernetes reports them.
    assert.match(bad.stderr, /The CronTab "negative" is invalid: \n\* spec\.replicas: Invalid value: -1: spec\.replicas in body should be greater than or equal to 0\n\* \.spec\.replicas: Invalid value: -1: should be a non-negative integer/);
    const extra = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'extra' }, spec: { cronSpec: '1 1 * * *', color: 'blue' } };
    const warned = await http.post(BASE, extra);
    assert.equal(warned.status, 201, warned.text);
    assert.deepEqual(warnings(warned.headers), ['unknown field "spec.color"']);
    assert.equal(warned.json.spec.color, undefined);
    const strict = await http.post(`${BASE}?fieldValidation=Strict`, { ...extra, metadata: { name: 'strict' } });
    assert.equal(strict.status, 400);
    assert.match(strict.json.message, /strict decoding error: unknown field "spec\.color"/);
    assert.equal((await http.get(`${BASE}/strict`)).status, 404);
  });

  it('a ValidatingAdmissionPolicy on a custom resource denies with its message', async () => {
    await k(['apply', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: crontab-replicas}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ['*'], operations: [CREATE, UPDATE], resources: [crontabs]}
  validations:
  - expression: "!has(object.spec.replicas) || object.spec.replicas <= 10"
    message: at most 10 replicas
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: crontab-replicas}
spec: {policyName: crontab-replicas, validationActions: [Deny]}
`);
    const denied = await kubectl(api.kubeconfig, ['create', '-f', '-'], { input: crontab('big', '* * * * *', 11) });
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /ValidatingAdmissionPolicy 'crontab-replicas' with binding 'crontab-replicas' denied request: at most 10 replicas/);
    await k(['create', '-f', '-'], crontab('small', '* * * * *', 10));
    await k(['delete', 'validatingadmissionpolicybinding', 'crontab-replicas']);
  });

  it('CEL rules: x-kubernetes-validations with message, messageExpression and a transition rule; a rule that does not compile is refused', async () => {
    const crd = (rule: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: limits.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: limits, singular: limit, kind: Limit}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: ${JSON.stringify(rule)}
              message: min must not exceed max
            - rule: "self.name.startsWith('lim-')"
              messageExpression: "'name ' + self.name + ' must start with lim-'"
            - rule: "self.mode == oldSelf.mode"
              message: mode is immutable
            properties:
              min: {type: integer}
              max: {type: integer}
              name: {type: string, maxLength: 32}
              mode: {type: string, maxLength: 16}
`;
    const bad = await kubectl(api.kubeconfig, ['create', '-f', '-'], { input: crd('self.min <= self.maxx') });
    assert.notEqual(bad.code, 0);
    // One version: Kubernetes validates its schema as the top-level spec.validation.
    assert.match(bad.stderr, /spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:17: undefined field 'maxx'/);
    await k(['create', '-f', '-'], crd('self.min <= self.max'));
    await k(['wait', '--for', 'condition=Established', '--timeout', '10s', 'crd/limits.stable.example.com']);
    const limit = (min: number, name: string, mode = 'a') => JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'Limit', metadata: { name: 'l1', namespace: 'default' }, spec: { min, max: 5, name, mode } });
    const refused = await http.post('/apis/stable.example.com/v1/namespaces/default/limits', limit(9, 'other'));
    assert.equal(refused.status, 422);
    assert.equal(refused.json.message, 'Limit.stable.example.com "l1" is invalid: [spec: Invalid value: "object": min must not exceed max, spec: Invalid value: "object": name other must start with lim-]');
    assert.equal((await http.post('/apis/stable.example.com/v1/namespaces/default/limits', limit(1, 'lim-1'))).status, 201);
    const changed = await http.patch('/apis/stable.example.com/v1/namespaces/default/limits/l1', { spec: { mode: 'b' } });
    assert.equal(changed.status, 422);
    assert.match(changed.json.message, /spec: Invalid value: "object": mode is immutable/);
  });

  it('a CRD whose schema is not structural is refused', async () => {
    const r = await kubectl(api.kubeconfig, ['create', '-f', '-'], { input: CRONTAB_CRD.replace('name: crontabs.stable.example.com', 'name: gizmos.stable.example.com').replace('plural: crontabs', 'plural: gizmos').replace('singular: crontab', 'singular: gizmo').replace('kind: CronTab', 'kind: Gizmo').replace('shortNames: [ct]', 'shortNames: [gz]').replace('              cronSpec: {type: string}', '              cronSpec: {}') });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The CustomResourceDefinition "gizmos.stable.example.com" is invalid: [^]*spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.properties\[cronSpec\]\.type: Required value: must not be empty for specified object fields/);
  });

  it('patches: merge and JSON patch; strategic merge patch is refused with 415', async () => {
    await k(['patch', 'ct', 'every-five', '--type', 'merge', '-p', '{"spec":{"image":"other"}}']);
    await k(['patch', 'ct', 'every-five', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/replicas","value":4}]']);
    const obj = (await http.get(`${BASE}/every-five`)).json;
    assert.deepEqual([obj.spec.image, obj.spec.replicas, obj.metadata.generation], ['other', 4, 3]);
    const smp = await http.patch(`${BASE}/every-five`, { spec: { image: 'x' } }, 'application/strategic-merge-patch+json');
    assert.equal(smp.status, 415);
    assert.equal(smp.json.message, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
  });

  it('status and scale subresources; kubectl scale; status is not written through the main resource', async () => {
    await k(['scale', 'crontab', 'hourly', '--replicas', '5']);
    assert.equal(await k(['get', 'ct', 'hourly', '-o', 'jsonpath={.spec.replicas}']), '5');
    const status = await http.patch(`${BASE}/hourly/status`, { status: { replicas: 3, selector: 'app=b', conditions: [{ type: 'Ready', status: 'True' }] } });
    assert.equal(status.status, 200, status.text);
    const scale = (await http.get(`${BASE}/hourly/scale`)).json;
    assert.deepEqual([scale.kind, scale.apiVersion, scale.spec, scale.status], ['Scale', 'autoscaling/v1', { replicas: 5 }, { replicas: 3, selector: 'app=b' }]);
    await http.patch(`${BASE}/hourly`, { status: { replicas: 99 } });
    assert.equal((await http.get(`${BASE}/hourly`)).json.status.replicas, 3);
    assert.match(await k(['get', 'ct', 'hourly', '-o', 'wide']), /^hourly\s+0 \* \* \* \*\s+5\s+True$/m);
  });

  it('server-side apply, dry run, and a deprecated version warns', async () => {
    const applied = crontab('applied', '1 * * * *', 1);
    await k(['apply', '--server-side', '--field-manager', 'tester', '-f', '-'], applied);
    const obj = (await http.get(`${BASE}/applied`)).json;
    assert.ok(obj.metadata.managedFields.some((f: any) => f.manager === 'tester' && f.operation === 'Apply'));
    await k(['create', '--dry-run=server', '-f', '-'], crontab('dry', '2 * * * *', 1));
    assert.equal((await http.get(`${BASE}/dry`)).status, 404);
    const beta = await http.get('/apis/stable.example.com/v1beta1/namespaces/default/crontabs/applied');
    assert.equal(beta.json.apiVersion, 'stable.example.com/v1beta1');
    assert.deepEqual(warnings(beta.headers), ['stable.example.com/v1beta1 CronTab is deprecated']);
  });

  it('watch sees the changes of a custom resource, with a field selector', async () => {
    const watch = await WatchStream.open(api.url, `${BASE}?watch=1&fieldSelector=spec.cronSpec%3D3%20*%20*%20*%20*`);
    assert.equal(watch.status, 200);
    await k(['create', '-f', '-'], crontab('watched', '3 * * * *', 1));
    await k(['create', '-f', '-'], crontab('unwatched', '4 * * * *', 1));
    await k(['label', 'ct', 'watched', 'seen=yes']);
    const events = await watch.waitForEvents(2);
    await watch.close();
    assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'watched'], ['MODIFIED', 'watched']]);
  });

  it('protobuf: bodies get 415, a protobuf-only Accept gets 406, and protobuf-then-JSON gets JSON', async () => {
    const pb = await http.post(BASE, Buffer.from([0x6b, 0x38, 0x73, 0x00]), { contentType: 'application/vnd.kubernetes.protobuf' });
    assert.equal(pb.status, 415);
    const only = await http.get(BASE, { accept: 'application/vnd.kubernetes.protobuf' });
    assert.equal(only.status, 406);
    const fallback = await http.get(BASE, { accept: 'application/vnd.kubernetes.protobuf, application/json' });
    assert.equal(fallback.status, 200);
    assert.equal(fallback.headers.get('content-type'), 'application/json');
  });

  it('a second CRD claiming a kind the group has accepted is not established', async () => {
    await k(['apply', '-f', '-'], CRONTAB_CRD.replace('name: crontabs.stable.example.com', 'name: crontabs2.stable.example.com').replace('plural: crontabs', 'plural: crontabs2').replace('singular: crontab', 'singular: crontab2').replace('shortNames: [ct]', 'shortNames: [ct2]'));
    const crd = await waitFor(async () => {
      const c = JSON.parse(await k(['get', 'crd', 'crontabs2.stable.example.com', '-o', 'json']));
      return c.status?.conditions?.length ? c : undefined;
    }, 'the conflicting CRD to get conditions');
    const names = crd.status.conditions.find((c: any) => c.type === 'NamesAccepted');
    assert.deepEqual([names.status, names.reason, names.message], ['False', 'ListKindConflict', '"CronTabList" is already in use']);
    assert.equal(crd.status.conditions.find((c: any) => c.type === 'Established').status, 'False');
    assert.equal((await http.get('/apis/stable.example.com/v1/crontabs2')).status, 404);
    await k(['delete', 'crd', 'crontabs2.stable.example.com']);
  });

  it('deleting the CRD deletes its custom resources, then the CRD, and the resource stops being served', async () => {
    await k(['delete', 'crd', 'crontabs.stable.example.com', '--wait=true', '--timeout=20s']);
    assert.equal((await http.get(BASE)).status, 404);
    const gone = await kubectl(api.kubeconfig, ['get', 'crontabs']);
    assert.notEqual(gone.code, 0);
    // Recreated, it starts empty.
    await k(['apply', '-f', '-'], CRONTAB_CRD);
    await k(['wait', '--for', 'condition=Established', '--timeout', '10s', 'crd/crontabs.stable.example.com']);
    assert.deepEqual((await http.get(BASE)).json.items, []);
  });
});
