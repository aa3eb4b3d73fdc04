// Webhook configurations through real kubectl against `kubelite apiserver`: apply (defaults
// filled in), get (NAME WEBHOOKS AGE), explain, Kubernetes' validation messages, delete.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

let api: RunningApiserver;

const mutating = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: inject
webhooks:
- name: inject.example.com
  clientConfig:
    service: {namespace: default, name: injector, path: /mutate}
  rules:
  - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}
  sideEffects: None
  admissionReviewVersions: [v1]
- name: label.example.com
  clientConfig:
    url: https://labeler.example.com/mutate
  sideEffects: NoneOnDryRun
  admissionReviewVersions: [v1, v1beta1]
`;

const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replicas
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {operations: [CREATE, UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= int(params.data.max)
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replicas-team
spec:
  policyName: replicas
  paramRef: {name: limits, namespace: team, parameterNotFoundAction: Deny}
  validationActions: [Deny]
`;

describe('admission registration kinds with kubectl', () => {
  before(async () => {
    api = await startApiserver();
  });

  after(async () => {
    await api?.stop();
  });

  it('apply fills in Kubernetes defaults; get shows the webhook count', async () => {
    assert.match(await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: mutating }), /mutatingwebhookconfiguration.admissionregistration.k8s.io\/inject created/);
    const cfg = JSON.parse(await kubectlOk(api.kubeconfig, ['get', 'mutatingwebhookconfiguration', 'inject', '-o', 'json']));
    const [first] = cfg.webhooks;
    assert.equal(first.failurePolicy, 'Fail');
    assert.equal(first.matchPolicy, 'Equivalent');
    assert.equal(first.timeoutSeconds, 10);
    assert.equal(first.reinvocationPolicy, 'Never');
    assert.deepEqual(first.namespaceSelector, {});
    assert.equal(first.clientConfig.service.port, 443);
    assert.equal(first.rules[0].scope, '*');
    assert.equal(cfg.metadata.generation, 1);
    assert.match(await kubectlOk(api.kubeconfig, ['get', 'mutatingwebhookconfigurations']), /^NAME\s+WEBHOOKS\s+AGE\ninject\s+2\s+\S+\n$/);
    // Applying again unchanged keeps the generation; a changed webhook bumps it.
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: mutating.replace('/mutate}', '/mutate, port: 8443}') });
    assert.equal(JSON.parse(await kubectlOk(api.kubeconfig, ['get', 'mutatingwebhookconfiguration', 'inject', '-o', 'json'])).metadata.generation, 2);
    await kubectlOk(api.kubeconfig, ['delete', 'mutatingwebhookconfiguration', 'inject']);
  });

  it('refuses what Kubernetes refuses, with its messages', async () => {
    const bad = mutating.replace('kind: MutatingWebhookConfiguration', 'kind: ValidatingWebhookConfiguration').replace('https://labeler', 'http://labeler').replace('sideEffects: None\n', 'sideEffects: Some\n');
    const r = await kubectl(api.kubeconfig, ['apply', '-f', '-'], { input: bad });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The ValidatingWebhookConfiguration "inject" is invalid/);
    assert.match(r.stderr, /webhooks\[0\].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"/);
    assert.match(r.stderr, /webhooks\[1\].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https:\/\/host\[\/path\]/);
  });

  it('ValidatingAdmissionPolicy and its binding: apply, defaults, columns, status, validation, explain', async () => {
    const applied = await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: policy });
    assert.match(applied, /validatingadmissionpolicy.admissionregistration.k8s.io\/replicas created/);
    assert.match(applied, /validatingadmissionpolicybinding.admissionregistration.k8s.io\/replicas-team created/);
    const p = JSON.parse(await kubectlOk(api.kubeconfig, ['get', 'validatingadmissionpolicy', 'replicas', '-o', 'json']));
    assert.equal(p.spec.failurePolicy, 'Fail');
    assert.equal(p.spec.matchConstraints.matchPolicy, 'Equivalent');
    assert.equal(p.spec.matchConstraints.resourceRules[0].scope, '*');
    assert.equal(p.metadata.generation, 1);
    assert.match(await kubectlOk(api.kubeconfig, ['get', 'validatingadmissionpolicies']), /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\nreplicas\s+1\s+v1\/ConfigMap\s+\S+\n$/);
    assert.match(await kubectlOk(api.kubeconfig, ['get', 'validatingadmissionpolicybindings']), /^NAME\s+POLICYNAME\s+PARAMREF\s+AGE\nreplicas-team\s+replicas\s+team\/limits\s+\S+\n$/);
    // The status subresource takes the status only; the spec stays.
    await kubectlOk(api.kubeconfig, ['patch', 'validatingadmissionpolicy', 'replicas', '--subresource=status', '--type=merge', '-p', '{"status":{"observedGeneration":1,"typeChecking":{}},"spec":{"failurePolicy":"Ignore"}}']);
    const patched = JSON.parse(await kubectlOk(api.kubeconfig, ['get', 'validatingadmissionpolicy', 'replicas', '-o', 'json']));
    assert.equal(patched.status.observedGeneration, 1);
    assert.equal(patched.spec.failurePolicy, 'Fail');
    const bad = await kubectl(api.kubeconfig, ['apply', '-f', '-'], { input: policy.replace('validationActions: [Deny]', 'validationActions: [Deny, Warn]').replace('name: limits, ', '').replace('expression: object.spec.replicas <= int(params.data.max)', 'expression: "object.spec.replicas <="') });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec.validationActions: Invalid value: \[\]string\{"Deny", "Warn"\}: must not contain both Deny and Warn/);
    assert.match(bad.stderr, /spec.paramRef: Required value: one of name or selector must be specified/);
    assert.match(bad.stderr, /ValidatingAdmissionPolicy.admissionregistration.k8s.io "replicas" is invalid: spec.validations\[0\].expression: Invalid value: "object.spec.replicas <=": compilation failed: ERROR: <input>:1:22: Syntax error: /);
    assert.match(await kubectlOk(api.kubeconfig, ['explain', 'validatingadmissionpolicies.spec.matchConstraints.resourceRules']), /resourceNames\s+<\[\]string>/);
    assert.match(await kubectlOk(api.kubeconfig, ['explain', 'validatingadmissionpolicybindings.spec']), /validationActions\s+<\[\]string>/);
  });

  it('explain, api-resources and the api-extensions category', async () => {
    assert.match(await kubectlOk(api.kubeconfig, ['explain', 'validatingwebhookconfigurations.webhooks']), /admissionReviewVersions\s+<\[\]string> -required-/);
    assert.match(await kubectlOk(api.kubeconfig, ['explain', 'mutatingwebhookconfigurations.webhooks.clientConfig']), /service\s+<ServiceReference>/);
    const resources = await kubectlOk(api.kubeconfig, ['api-resources', '--api-group=admissionregistration.k8s.io']);
    assert.match(resources, /mutatingwebhookconfigurations\s+admissionregistration.k8s.io\/v1\s+false\s+MutatingWebhookConfiguration/);
    assert.match(resources, /validatingwebhookconfigurations\s+admissionregistration.k8s.io\/v1\s+false\s+ValidatingWebhookConfiguration/);
    await kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: mutating.replace('kind: MutatingWebhookConfiguration', 'kind: ValidatingWebhookConfiguration') });
    assert.match(await kubectlOk(api.kubeconfig, ['get', 'api-extensions']), /validatingwebhookconfiguration.admissionregistration.k8s.io\/inject\s+2/);
  });
});
