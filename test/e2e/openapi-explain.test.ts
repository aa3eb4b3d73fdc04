// End-to-end: what `kubectl explain` prints from /openapi/v3 for the fields users look up most
// (IntOrString and Quantity printed by their Kubernetes type names, our own short descriptions),
// and that a wrongly typed field is refused under `kubectl apply --validate=strict`, with the
// pinned kubectl 1.33 and the dispatcher's default.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

const KUBECTLS: Array<{ name: string; version?: string }> = [{ name: 'kubectl 1.33', version: '1.33' }, { name: 'default kubectl' }];

function deployment(name: string, specExtra: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: c, image: nginx}]}
${specExtra}`;
}

describe('kubectl explain and strict validation against /openapi/v3', () => {
  let server: RunningApiserver;
  before(async () => {
    server = await startApiserver();
  });
  after(async () => {
    await server?.stop();
  });

  for (const k of KUBECTLS) {
    it(`${k.name}: explain deployment.spec.strategy.rollingUpdate shows IntOrString fields`, async () => {
      const out = await kubectlOk(server.kubeconfig, ['explain', 'deployment.spec.strategy.rollingUpdate'], { version: k.version });
      assert.match(out, /FIELD: rollingUpdate <RollingUpdateDeployment>/);
      assert.match(out, /^ {2}maxSurge\t<IntOrString>$/m);
      assert.match(out, /^ {2}maxUnavailable\t<IntOrString>$/m);
      assert.match(out, /percentage of the desired count/);
      assert.doesNotMatch(out, /<no description>|<empty>/);
    });

    it(`${k.name}: explain shows Quantity maps and described metadata`, async () => {
      const resources = await kubectlOk(server.kubeconfig, ['explain', 'pod.spec.containers.resources'], { version: k.version });
      assert.match(resources, /^ {2}limits\t<map\[string\]Quantity>$/m);
      assert.match(resources, /^ {2}requests\t<map\[string\]Quantity>$/m);
      const name = await kubectlOk(server.kubeconfig, ['explain', 'pod.metadata.name'], { version: k.version });
      assert.match(name, /FIELD: name <string>/);
      assert.match(name, /Unique name of the object/);
      const port = await kubectlOk(server.kubeconfig, ['explain', 'service.spec.ports.targetPort'], { version: k.version });
      assert.match(port, /FIELD: targetPort <IntOrString>/);
    });
  }

  it('explain from /openapi/v2 prints IntOrString as <string>, as against kube-apiserver (v2 has no oneOf)', async () => {
    const out = await kubectlOk(server.kubeconfig, ['explain', '--output=plaintext-openapiv2', 'deployment.spec.strategy.rollingUpdate'], { version: '1.33' });
    assert.match(out, /^ {3}maxSurge\t<string>$/m);
    assert.match(out, /Limits on how fast a rolling update replaces pods\./);
  });

  it('apply --validate=strict refuses a wrongly typed field and an unknown field (400, as kube-apiserver)', async () => {
    const cases = [
      { name: 'bad-replicas', extra: '  replicas: "three"\n', error: /cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32/ },
      { name: 'bad-surge', extra: '  strategy: {rollingUpdate: {maxSurge: true}}\n', error: /cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field RollingUpdateDeployment\.spec\.strategy\.rollingUpdate\.maxSurge of type int32/ },
      { name: 'bad-field', extra: '  bogusField: 1\n', error: /cannot be handled as a Deployment: strict decoding error: unknown field "spec\.bogusField"/ },
    ];
    for (const k of KUBECTLS) {
      for (const c of cases) {
        const r = await kubectl(server.kubeconfig, ['apply', '--validate=strict', '-f', '-'], { version: k.version, input: deployment(c.name, c.extra) });
        assert.notEqual(r.code, 0, `${k.name} ${c.name}: ${r.stdout}`);
        assert.match(r.stderr, /^Error from server \(BadRequest\): error when creating "STDIN": Deployment in version "v1" /m, `${k.name} ${c.name}`);
        assert.match(r.stderr, c.error, `${k.name} ${c.name}`);
      }
    }
    // A well-typed IntOrString is accepted in both its forms.
    await kubectlOk(server.kubeconfig, ['apply', '--validate=strict', '-f', '-'], { input: deployment('good', '  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: "50%"}}\n') });
  });
});
