import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/types.js';
import { memoryObjects, refused } from '../admission.testutil.js';
import type { AdmissionAttributes } from '../types.js';
import { celPolicyCompiler } from './cel.js';
import { ValidatingAdmissionPolicyPlugin } from './plugin.js';
import { binding, memoryContext, policy } from './policy.testutil.js';

const deployments = findResource('apps', 'v1', 'deployments') as KindVersion;
const deployment = (replicas: number, labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels }, spec: { replicas } });
const write = (object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', kind: deployments, group: 'apps', resource: 'deployments', subresource: '', namespace: 'default', name: '', object, user: { name: 'alice', groups: ['dev'] }, dryRun: false, ...over,
});

function pluginOf(policies: ValidatingAdmissionPolicy[], bindings: ValidatingAdmissionPolicyBinding[], objects: KubeObject[] = [], namespaces: Record<string, Record<string, string>> = { default: { env: 'prod' } }) {
  return new ValidatingAdmissionPolicyPlugin({ policies: memoryObjects(policies), bindings: memoryObjects(bindings) }, celPolicyCompiler, memoryContext(objects, namespaces));
}

const maxReplicas = policy('max-replicas', { validations: [{ expression: 'object.spec.replicas <= 5' }] });

describe('ValidatingAdmissionPolicy admission', () => {
  it('denies with Kubernetes\' message, reason Invalid and code 422, the message as the one cause', async () => {
    const plugin = pluginOf([maxReplicas], [binding('max-replicas-binding', 'max-replicas')]);
    await plugin.validate(write(deployment(3)));
    const err = await refused(plugin.validate(write(deployment(7))));
    const message = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: failed expression: object.spec.replicas <= 5";
    assert.equal(err.message, `deployments.apps "web" is forbidden: ${message}`);
    assert.equal(err.code, 422);
    assert.equal(err.reason, 'Invalid');
    assert.deepEqual(err.details, { name: 'web', group: 'apps', kind: 'deployments', causes: [{ message }] });
  });

  it('does nothing for a policy without a binding, or for a binding without its policy', async () => {
    await pluginOf([maxReplicas], []).validate(write(deployment(7)));
    await pluginOf([], [binding('b', 'max-replicas')]).validate(write(deployment(7)));
  });

  it('words the deny by message, then messageExpression, with the validation\'s reason and its code', async () => {
    const p = policy('p', {
      validations: [
        { expression: 'object.spec.replicas <= 5', message: ' too many replicas ', reason: 'Forbidden' },
        { expression: 'object.spec.replicas <= 1', message: 'static', messageExpression: "'replicas ' + string(object.spec.replicas) + ' > 1'" },
      ],
    });
    const plugin = pluginOf([p], [binding('b', 'p')]);
    const first = await refused(plugin.validate(write(deployment(7))));
    assert.match(first.message, /denied request: too many replicas$/);
    assert.equal(first.code, 403);
    assert.equal(first.reason, 'Forbidden');
    const second = await refused(plugin.validate(write(deployment(3))));
    assert.match(second.message, /denied request: replicas 3 > 1$/);
    assert.equal(second.code, 422);
  });

  it('falls back to message when messageExpression fails or gives a multi-line text', async () => {
    const p = (messageExpression: string) => policy('p', { validations: [{ expression: 'false', message: 'fallback', messageExpression }] });
    for (const expr of ['object.spec.nothere', "'two\\nlines'", "''"]) {
      const err = await refused(pluginOf([p(expr)], [binding('b', 'p')]).validate(write(deployment(1))));
      assert.match(err.message, /denied request: fallback$/, expr);
    }
  });

  it('Warn adds a warning and admits; Audit admits silently; Deny and Warn together do both', async () => {
    const warn = write(deployment(7));
    await pluginOf([maxReplicas], [binding('b', 'max-replicas', { validationActions: ['Warn'] })]).validate(warn);
    assert.deepEqual(warn.warnings, ["Validation failed for ValidatingAdmissionPolicy 'max-replicas' with binding 'b': failed expression: object.spec.replicas <= 5"]);
    const audit = write(deployment(7));
    await pluginOf([maxReplicas], [binding('b', 'max-replicas', { validationActions: ['Audit'] })]).validate(audit);
    assert.equal(audit.warnings, undefined);
    const both = write(deployment(7));
    await refused(pluginOf([maxReplicas], [binding('b', 'max-replicas', { validationActions: ['Deny', 'Warn'] })]).validate(both));
    assert.equal(both.warnings?.length, 1);
  });

  it('an expression error denies under failurePolicy Fail and is ignored under Ignore', async () => {
    const failing = (failurePolicy: string) => policy('p', { failurePolicy, validations: [{ expression: 'object.spec.missing > 1' }] });
    const err = await refused(pluginOf([failing('Fail')], [binding('b', 'p')]).validate(write(deployment(1))));
    assert.match(err.message, /ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.spec.missing > 1' resulted in error: no such key: missing$/);
    assert.equal(err.code, 422);
    await pluginOf([failing('Ignore')], [binding('b', 'p')]).validate(write(deployment(1)));
  });

  it('an expression that does not compile fails when evaluated, per failurePolicy', async () => {
    const p = policy('p', { validations: [{ expression: 'object.spec.replicas <' }] });
    const err = await refused(pluginOf([p], [binding('b', 'p')]).validate(write(deployment(1))));
    assert.match(err.message, /denied request: compilation error: compilation failed: /);
  });

  it('params is undeclared without a paramKind, as in Kubernetes', async () => {
    const p = policy('p', { validations: [{ expression: 'params == null' }] });
    const err = await refused(pluginOf([p], [binding('b', 'p')]).validate(write(deployment(1))));
    assert.match(err.message, /denied request: compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' \(in container ''\)/);
  });

  it('matches on resource rules, exclusions, operations, object and namespace selectors', async () => {
    const withMatch = (matchConstraints: Record<string, unknown>) => policy('p', { matchConstraints: { namespaceSelector: {}, objectSelector: {}, resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }], ...matchConstraints }, validations: [{ expression: 'false' }] });
    const denies = async (mc: Record<string, unknown>, a = write(deployment(1, { app: 'web' }))) => {
      try {
        await pluginOf([withMatch(mc)], [binding('b', 'p')]).validate(a);
        return false;
      } catch {
        return true;
      }
    };
    assert.equal(await denies({}), true);
    assert.equal(await denies({}, write(deployment(1), { operation: 'UPDATE', oldObject: deployment(1) })), false);
    assert.equal(await denies({ excludeResourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], resourceNames: ['web'] }] }), false);
    assert.equal(await denies({ excludeResourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], resourceNames: ['other'] }] }), true);
    assert.equal(await denies({ objectSelector: { matchLabels: { app: 'web' } } }), true);
    assert.equal(await denies({ objectSelector: { matchLabels: { app: 'db' } } }), false);
    assert.equal(await denies({ namespaceSelector: { matchLabels: { env: 'prod' } } }), true);
    assert.equal(await denies({ namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] } }), false);
    assert.equal(await denies({ resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }), false);
  });

  it('a policy matching another version of the resource (Equivalent) sees the object converted to it', async () => {
    const hpaV2 = findResource('autoscaling', 'v2', 'horizontalpodautoscalers') as KindVersion;
    const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'default' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 90 } } }] } };
    const v1Policy = (matchPolicy: string) =>
      policy('cpu', {
        matchConstraints: { matchPolicy, namespaceSelector: {}, objectSelector: {}, resourceRules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }] },
        validations: [{ expression: "object.apiVersion == 'autoscaling/v1' && object.spec.targetCPUUtilizationPercentage <= 80 && request.kind.version == 'v1' && request.requestKind.version == 'v2'", message: 'cpu target above 80' }],
      });
    const a = { ...write(hpa), kind: hpaV2, group: 'autoscaling', resource: 'horizontalpodautoscalers' };
    const err = await refused(pluginOf([v1Policy('Equivalent')], [binding('b', 'cpu')]).validate(a));
    assert.match(err.message, /denied request: cpu target above 80$/);
    await pluginOf([v1Policy('Equivalent')], [binding('b', 'cpu')]).validate({ ...a, object: { ...hpa, spec: { ...hpa.spec, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] } } });
    await pluginOf([v1Policy('Exact')], [binding('b', 'cpu')]).validate(a);
  });

  it('on DELETE, object is null and oldObject the object deleted', async () => {
    const p = policy('protect', {
      matchConstraints: { namespaceSelector: {}, objectSelector: {}, resourceRules: [{ operations: ['DELETE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] },
      validations: [{ expression: "object == null && request.operation == 'DELETE' && request.options.kind == 'DeleteOptions' && !has(oldObject.metadata.labels.protected)", message: 'protected' }],
    });
    const plugin = pluginOf([p], [binding('b', 'protect')]);
    const del = (labels: Record<string, string>) => write(deployment(1), { operation: 'DELETE', name: 'web', object: undefined, oldObject: deployment(1, labels) });
    await plugin.validate(del({}));
    assert.match((await refused(plugin.validate(del({ protected: 'true' })))).message, /^deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'protect' with binding 'b' denied request: protected$/);
  });

  it("narrows by the binding's matchResources", async () => {
    const b = binding('b', 'max-replicas', { matchResources: { namespaceSelector: { matchLabels: { env: 'test' } }, objectSelector: {} } });
    await pluginOf([maxReplicas], [b]).validate(write(deployment(7)));
    await refused(pluginOf([maxReplicas], [b], [], { default: { env: 'test' } }).validate(write(deployment(7))));
  });

  it('never applies to the admission configuration kinds themselves', async () => {
    const everything = policy('all', { matchConstraints: { resourceRules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], namespaceSelector: {}, objectSelector: {} }, validations: [{ expression: 'false' }] });
    const plugin = pluginOf([everything], [binding('b', 'all')]);
    const vap = findResource('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies') as KindVersion;
    await plugin.validate({ ...write(maxReplicas as KubeObject), kind: vap, group: vap.group, resource: vap.resource, namespace: '' });
    await refused(plugin.validate(write(deployment(1))));
  });

  it('a policy without matchConstraints fails to configure under Fail', async () => {
    const p = { ...maxReplicas, spec: { ...maxReplicas.spec, matchConstraints: undefined } };
    const err = await refused(pluginOf([p], [binding('b', 'max-replicas')]).validate(write(deployment(1))));
    assert.equal(err.message, `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' denied request: failed to configure policy: policy contained no match constraints, a required field`);
  });

  it('sees request, namespaceObject, oldObject and variables (evaluated in order, only when used)', async () => {
    const p = policy('p', {
      variables: [
        { name: 'replicas', expression: 'object.spec.replicas' },
        { name: 'double', expression: 'variables.replicas * 2' },
        { name: 'broken', expression: 'object.spec.nothere' },
      ],
      validations: [
        { expression: "request.operation == 'UPDATE' || oldObject == null" },
        { expression: "request.userInfo.username == 'alice' && request.kind.kind == 'Deployment' && request.namespace == 'default' && request.name == 'web'" },
        { expression: "namespaceObject.metadata.labels.env == 'prod'" },
        { expression: 'variables.double < 10', messageExpression: "'double is ' + string(variables.double)" },
      ],
    });
    const plugin = pluginOf([p], [binding('b', 'p')]);
    await plugin.validate(write(deployment(4)));
    const err = await refused(plugin.validate(write(deployment(5))));
    assert.match(err.message, /denied request: double is 10$/);
    const usesBroken = policy('q', { variables: [{ name: 'broken', expression: 'object.spec.nothere' }], validations: [{ expression: 'variables.broken == 1' }] });
    const broken = await refused(pluginOf([usesBroken], [binding('b', 'q')]).validate(write(deployment(1))));
    assert.match(broken.message, /denied request: expression 'variables.broken == 1' resulted in error: composited variable "broken" fails to evaluate: /);
  });

  it('matchConditions: a false one skips the policy, an error fails per failurePolicy', async () => {
    const p = (failurePolicy: string, expression: string) => policy('p', { failurePolicy, matchConditions: [{ name: 'only-big', expression }], validations: [{ expression: 'false' }] });
    await pluginOf([p('Fail', 'object.spec.replicas > 5')], [binding('b', 'p')]).validate(write(deployment(3)));
    await refused(pluginOf([p('Fail', 'object.spec.replicas > 5')], [binding('b', 'p')]).validate(write(deployment(7))));
    const err = await refused(pluginOf([p('Fail', 'object.spec.nothere')], [binding('b', 'p')]).validate(write(deployment(7))));
    assert.match(err.message, /denied request: expression 'object.spec.nothere' resulted in error: /);
    await pluginOf([p('Ignore', 'object.spec.nothere')], [binding('b', 'p')]).validate(write(deployment(7)));
  });

  it('audit annotations: a value of the wrong type denies under Fail', async () => {
    const p = policy('p', { auditAnnotations: [{ key: 'k', valueExpression: '1 + 1' }], validations: [{ expression: 'true' }] });
    const err = await refused(pluginOf([p], [binding('b', 'p')]).validate(write(deployment(1))));
    assert.match(err.message, /denied request: valueExpression '1 \+ 1' resulted in unsupported return type: int\. Return type must be either string or null\.$/);
    const ok = policy('p', { auditAnnotations: [{ key: 'k', valueExpression: "'replicas: ' + string(object.spec.replicas)" }], validations: [{ expression: 'true' }] });
    await pluginOf([ok], [binding('b', 'p')]).validate(write(deployment(1)));
  });
});

describe('ValidatingAdmissionPolicy params', () => {
  const limits = (name: string, max: string, namespace = 'default', labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { max } });
  const withParams = policy('max', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' replicas'" }] });

  it('reads the param named by paramRef, in the request\'s namespace or the one named', async () => {
    const b = binding('b', 'max', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } });
    const plugin = pluginOf([withParams], [b], [limits('limits', '3')]);
    await plugin.validate(write(deployment(3)));
    assert.match((await refused(plugin.validate(write(deployment(4))))).message, /with binding 'b' denied request: at most 3 replicas$/);
    const elsewhere = binding('b', 'max', { paramRef: { name: 'limits', namespace: 'config', parameterNotFoundAction: 'Deny' } });
    await refused(pluginOf([withParams], [elsewhere], [limits('limits', '10'), limits('limits', '2', 'config')]).validate(write(deployment(3))));
  });

  it('runs once per param a selector selects', async () => {
    const b = binding('b', 'max', { paramRef: { selector: { matchLabels: { kind: 'limit' } }, parameterNotFoundAction: 'Allow' } });
    const plugin = pluginOf([withParams], [b], [limits('a', '10', 'default', { kind: 'limit' }), limits('b', '2', 'default', { kind: 'limit' }), limits('c', '1')]);
    assert.match((await refused(plugin.validate(write(deployment(3))))).message, /at most 2 replicas$/);
    await plugin.validate(write(deployment(2)));
  });

  it('no param: Allow admits, Deny fails to configure the binding', async () => {
    const allow = binding('b', 'max', { paramRef: { name: 'absent', parameterNotFoundAction: 'Allow' } });
    await pluginOf([withParams], [allow]).validate(write(deployment(100)));
    const deny = binding('b', 'max', { paramRef: { name: 'absent', parameterNotFoundAction: 'Deny' } });
    const err = await refused(pluginOf([withParams], [deny]).validate(write(deployment(1))));
    assert.equal(err.message, "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
  });

  it('an unknown paramKind fails to configure the policy', async () => {
    const p = policy('max', { paramKind: { apiVersion: 'example.com/v1', kind: 'Limits' }, validations: [{ expression: 'true' }] });
    const err = await refused(pluginOf([p], [binding('b', 'max', { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } })]).validate(write(deployment(1))));
    assert.match(err.message, /ValidatingAdmissionPolicy 'max' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com\/v1, Kind=Limits'$/);
  });

  it('a namespaced paramKind for a cluster-scoped request needs paramRef.namespace', async () => {
    const p = policy('ns', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }], namespaceSelector: {}, objectSelector: {} }, validations: [{ expression: 'true' }] });
    const namespaces = findResource('', 'v1', 'namespaces') as KindVersion;
    const a: AdmissionAttributes = { ...write({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } }), kind: namespaces, group: '', resource: 'namespaces', namespace: '' };
    const err = await refused(pluginOf([p], [binding('b', 'ns', { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } })]).validate(a));
    assert.match(err.message, /failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources$/);
  });
});
