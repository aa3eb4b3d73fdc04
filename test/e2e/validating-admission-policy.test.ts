// ValidatingAdmissionPolicy through real kubectl against `kubelite apiserver`: a policy with a
// binding denies a Deployment with too many replicas with Kubernetes' message, the Warn action
// reaches kubectl as a warning, a param-driven policy reads its limit from a ConfigMap, an
// expression that fails denies under failurePolicy Fail and is ignored under Ignore, and
// `kubelite controller-manager` reports the policies' type checking in their status.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startControllerManager, type RunningControllerManager } from '../support/controller-manager.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

let api: RunningApiserver;
let manager: RunningControllerManager | undefined;

const policy = (name: string, spec: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ${name}
spec:
  matchConstraints:
    resourceRules:
    - {operations: [CREATE, UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}
${spec}`;

const binding = (name: string, policyName: string, spec: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ${name}
spec:
  policyName: ${policyName}
${spec}`;

const apply = (yaml: string) => kubectlOk(api.kubeconfig, ['apply', '-f', '-'], { input: yaml });
const createDeployment = (ns: string, name: string, replicas: number) => kubectl(api.kubeconfig, ['create', 'deployment', name, '--image=nginx', `--replicas=${replicas}`, '-n', ns]);

describe('ValidatingAdmissionPolicy with kubectl', () => {
  before(async () => {
    api = await startApiserver();
    for (const ns of ['deny', 'warn', 'params', 'failing']) await kubectlOk(api.kubeconfig, ['create', 'namespace', ns]);
    await kubectlOk(api.kubeconfig, ['label', 'namespace', 'warn', 'policy=warn']);
  });

  after(async () => {
    await manager?.stop();
    await api?.stop();
  });

  it('a policy with a binding denies too many replicas with its message; within the limit is admitted', async () => {
    await apply(policy('max-replicas', `    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: deny}}
  validations:
  - expression: object.spec.replicas <= 5
    message: at most 5 replicas`));
    await apply(binding('max-replicas-binding', 'max-replicas', '  validationActions: [Deny]'));
    const refused = await createDeployment('deny', 'big', 7);
    assert.notEqual(refused.code, 0);
    assert.equal(refused.stderr.trim(), `error: failed to create deployment: deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: at most 5 replicas`);
    const applied = await kubectl(api.kubeconfig, ['apply', '-f', '-'], { input: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big, namespace: deny}\nspec:\n  replicas: 9\n  selector: {matchLabels: {app: big}}\n  template:\n    metadata: {labels: {app: big}}\n    spec: {containers: [{name: c, image: nginx}]}\n' });
    assert.notEqual(applied.code, 0);
    assert.match(applied.stderr, /The deployments "big" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: at most 5 replicas/);
    assert.equal((await createDeployment('deny', 'small', 3)).code, 0);
    // An update past the limit is refused too; the scale subresource is not among the policy's resources.
    const patched = await kubectl(api.kubeconfig, ['patch', 'deployment', 'small', '-n', 'deny', '--type=merge', '-p', '{"spec":{"replicas":6}}']);
    assert.match(patched.stderr, /The deployments "small" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: at most 5 replicas/);
    assert.equal((await kubectl(api.kubeconfig, ['scale', 'deployment', 'small', '--replicas=6', '-n', 'deny'])).code, 0);
  });

  it('Warn admits and kubectl prints the warning', async () => {
    await apply(policy('warn-replicas', `    namespaceSelector: {matchLabels: {policy: warn}}
  validations:
  - expression: object.spec.replicas <= 2
    messageExpression: "'replicas ' + string(object.spec.replicas) + ' above 2'"`));
    await apply(binding('warn-replicas-binding', 'warn-replicas', '  validationActions: [Warn]'));
    const r = await createDeployment('warn', 'many', 4);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Warning: Validation failed for ValidatingAdmissionPolicy 'warn-replicas' with binding 'warn-replicas-binding': replicas 4 above 2/);
    assert.match(r.stdout, /deployment.apps\/many created/);
  });

  it('a param-driven policy reads its limit from the ConfigMap its binding names', async () => {
    await apply(`apiVersion: v1
kind: ConfigMap
metadata: {name: limits, namespace: params}
data: {max: "2"}
`);
    await apply(policy('param-replicas', `    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: params}}
  paramKind: {apiVersion: v1, kind: ConfigMap}
  validations:
  - expression: object.spec.replicas <= int(params.data.max)
    messageExpression: "'replicas must be at most ' + params.data.max"`));
    await apply(binding('param-replicas-binding', 'param-replicas', '  paramRef: {name: limits, parameterNotFoundAction: Deny}\n  validationActions: [Deny]'));
    assert.match((await createDeployment('params', 'three', 3)).stderr, /denied request: replicas must be at most 2$/m);
    assert.equal((await createDeployment('params', 'two', 2)).code, 0);
    // A new limit applies to the next request.
    await kubectlOk(api.kubeconfig, ['patch', 'configmap', 'limits', '-n', 'params', '--type=merge', '-p', '{"data":{"max":"4"}}']);
    assert.equal((await createDeployment('params', 'three', 3)).code, 0);
    // Without the param, parameterNotFoundAction Deny refuses.
    await kubectlOk(api.kubeconfig, ['delete', 'configmap', 'limits', '-n', 'params']);
    assert.match((await createDeployment('params', 'one', 1)).stderr, /ValidatingAdmissionPolicy 'param-replicas' with binding 'param-replicas-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction/);
    // A paramKind that names no stored resource fails to configure the policy.
    await kubectlOk(api.kubeconfig, ['delete', 'validatingadmissionpolicybinding', 'param-replicas-binding']);
    await apply(policy('review-params', `    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: params}}
  paramKind: {apiVersion: authorization.k8s.io/v1, kind: SubjectAccessReview}
  validations:
  - expression: "true"`));
    await apply(binding('review-params-binding', 'review-params', '  paramRef: {name: any, parameterNotFoundAction: Allow}\n  validationActions: [Deny]'));
    assert.match((await createDeployment('params', 'one', 1)).stderr, /ValidatingAdmissionPolicy 'review-params' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'authorization.k8s.io\/v1, Kind=SubjectAccessReview'$/m);
  });

  it("the controller manager's status controller reports type checking warnings and the observed generation", async () => {
    manager = await startControllerManager(api.kubeconfig, ['--controllers=validatingadmissionpolicy-status-controller']);
    await apply(policy('typo', `  validations:
  - expression: object.spec.replicass <= 5`));
    /** The status once it has observed `generation` (the controller writes it shortly after the change). */
    const statusAt = async (generation: number) => {
      for (let i = 0; ; i++) {
        const s = JSON.parse((await kubectlOk(api.kubeconfig, ['get', 'validatingadmissionpolicy', 'typo', '-o', 'jsonpath={.status}'])) || '{}');
        if (s.observedGeneration === generation || i === 200) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    assert.deepEqual(await statusAt(1), {
      observedGeneration: 1,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'\n | object.spec.replicass <= 5\n | ...........^\n" }] },
    });
    await apply(policy('typo', `  validations:
  - expression: object.spec.replicas <= 5`));
    assert.deepEqual(await statusAt(2), { observedGeneration: 2, typeChecking: {} });
  });

  it('an expression that fails denies under failurePolicy Fail and is ignored under Ignore', async () => {
    const failing = (failurePolicy: string) =>
      policy('failing', `    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: failing}}
  failurePolicy: ${failurePolicy}
  validations:
  - expression: object.spec.nothere > 1`);
    await apply(failing('Fail'));
    await apply(binding('failing-binding', 'failing', '  validationActions: [Deny]'));
    const r = await createDeployment('failing', 'a', 1);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /ValidatingAdmissionPolicy 'failing' with binding 'failing-binding' denied request: expression 'object.spec.nothere > 1' resulted in error: no such key: nothere$/m);
    await apply(failing('Ignore'));
    const ignored = await createDeployment('failing', 'a', 1);
    assert.equal(ignored.code, 0, ignored.stderr);
  });
});
