// PriorityClass, RuntimeClass, EndpointSlice and events.k8s.io/v1 Event through real kubectl against
// a `kubelite apiserver` process (Priority and RuntimeClass admission on, as by default): the
// built-in PriorityClasses, pods getting their priority and runtime overhead, `kubectl events`,
// `kubectl get endpointslices`, create/get/apply/delete and `kubectl explain` of each.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

let api: RunningApiserver;
const k = (args: string[], input?: string) => kubectlOk(api.kubeconfig, args, input === undefined ? {} : { input });
const refused = async (args: string[], input?: string): Promise<string> => {
  const r = await kubectl(api.kubeconfig, args, input === undefined ? {} : { input });
  assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded: ${r.stdout}`);
  return r.stderr.trim();
};
/** `kubectl get` rows as arrays of cells. */
const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('cluster kinds through kubectl', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
  });
  after(async () => {
    await api?.stop();
  });

  it('kubectl get pc lists the two built-in classes; they cannot be deleted', async () => {
    const table = rows(await k(['get', 'pc']));
    assert.deepEqual(table[0], ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
    assert.deepEqual(table.slice(1).map((r) => [r[0], r[1], r[2], r[4]]), [
      ['system-cluster-critical', '2000000000', 'false', 'PreemptLowerPriority'],
      ['system-node-critical', '2000001000', 'false', 'PreemptLowerPriority'],
    ]);
    assert.equal(await refused(['delete', 'pc', 'system-node-critical']), 'Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
    assert.match(await k(['explain', 'priorityclass.preemptionPolicy']), /FIELD: preemptionPolicy <string>/);
  });

  it('a pod naming a PriorityClass gets its priority and preemption policy; one global default', async () => {
    await k(['apply', '-f', '-'], 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 1000\nglobalDefault: true\npreemptionPolicy: Never\ndescription: shiny\n');
    assert.match(await k(['get', 'pc', 'gold']), /^gold\s+1000\s+true\s+\S+\s+Never$/m);
    assert.match(
      await refused(['create', '-f', '-'], 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: silver}\nvalue: 500\nglobalDefault: true\n'),
      /priorityclasses.scheduling.k8s.io "silver" is forbidden: PriorityClass gold is already marked as default. Only one default can exist/,
    );
    assert.match(await refused(['patch', 'pc', 'gold', '--type=merge', '-p', '{"value":5}']), /The PriorityClass "gold" is invalid: value: Forbidden: may not be changed in an update./);
    await k(['run', 'critical', '--image=busybox', '--restart=Never', '--overrides={"spec":{"priorityClassName":"system-cluster-critical"}}']);
    assert.equal(await k(['get', 'pod', 'critical', '-o', 'jsonpath={.spec.priority} {.spec.preemptionPolicy}']), '2000000000 PreemptLowerPriority');
    // Naming no class: the global default one.
    await k(['run', 'plain', '--image=busybox', '--restart=Never']);
    assert.equal(await k(['get', 'pod', 'plain', '-o', 'jsonpath={.spec.priorityClassName} {.spec.priority} {.spec.preemptionPolicy}']), 'gold 1000 Never');
    assert.match(await refused(['run', 'nope', '--image=busybox', '--restart=Never', '--overrides={"spec":{"priorityClassName":"platinum"}}']), /pods "nope" is forbidden: no PriorityClass with name platinum was found/);
    await k(['delete', 'pc', 'gold']);
    await k(['delete', 'pod', 'critical', 'plain', '--grace-period=0', '--force']);
  });

  it('a pod naming a RuntimeClass gets its overhead and scheduling; a missing class is refused', async () => {
    await k(['apply', '-f', '-'], `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: gvisor}
handler: runsc
overhead: {podFixed: {cpu: 250m, memory: 120Mi}}
scheduling:
  nodeSelector: {sandbox: gvisor}
  tolerations: [{key: sandbox, operator: Exists, effect: NoSchedule}]
`);
    assert.match(await k(['get', 'runtimeclasses']), /^NAME\s+HANDLER\s+AGE\ngvisor\s+runsc\s+\S+$/m);
    await k(['run', 'sandboxed', '--image=busybox', '--restart=Never', '--overrides={"spec":{"runtimeClassName":"gvisor"}}']);
    assert.equal(await k(['get', 'pod', 'sandboxed', '-o', 'jsonpath={.spec.overhead.cpu} {.spec.overhead.memory} {.spec.nodeSelector.sandbox}']), '250m 120Mi gvisor');
    assert.match(await k(['get', 'pod', 'sandboxed', '-o', 'jsonpath={.spec.tolerations[*].key}']), /\bsandbox\b/);
    assert.match(await refused(['run', 'kata', '--image=busybox', '--restart=Never', '--overrides={"spec":{"runtimeClassName":"kata"}}']), /pods "kata" is forbidden: pod rejected: RuntimeClass "kata" not found/);
    assert.match(await refused(['patch', 'runtimeclass', 'gvisor', '--type=merge', '-p', '{"handler":"kata"}']), /handler: Invalid value: "kata": field is immutable/);
    assert.match(await k(['explain', 'runtimeclass.overhead']), /podFixed/);
    await k(['delete', 'pod', 'sandboxed', '--grace-period=0', '--force']);
    await k(['delete', 'runtimeclass', 'gvisor']);
  });

  it('kubectl get endpointslices shows NAME ADDRESSTYPE PORTS ENDPOINTS AGE', async () => {
    await k(['apply', '-f', '-'], `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-abc, namespace: default, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
endpoints:
- addresses: [10.0.0.1]
  conditions: {ready: true}
- addresses: [10.0.0.2]
ports: [{name: http, port: 80}]
`);
    const table = rows(await k(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']));
    assert.deepEqual(table[0], ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
    assert.deepEqual(table[1]!.slice(0, 4), ['web-abc', 'IPv4', '80', '10.0.0.1,10.0.0.2']);
    assert.equal(await k(['get', 'endpointslice', 'web-abc', '-o', 'jsonpath={.ports[0].protocol} {.metadata.generation}']), 'TCP 1');
    assert.match(await refused(['patch', 'endpointslice', 'web-abc', '--type=merge', '-p', '{"addressType":"IPv6"}']), /addressType: Invalid value: "IPv6": field is immutable/);
    assert.match(await k(['explain', 'endpointslice.endpoints']), /addresses\s+<\[\]string> -required-/);
    await k(['delete', 'endpointslice', 'web-abc']);
  });

  it('events written through events.k8s.io/v1 are core/v1 events: kubectl events and kubectl get events.v1.events.k8s.io', async () => {
    await k(['create', '-f', '-'], `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: web.1, namespace: default}
eventTime: "2026-01-01T00:00:00.000000Z"
reportingController: example.com/e2e
reportingInstance: e2e-1
action: Testing
reason: Tested
regarding: {kind: Pod, namespace: default, name: web}
note: hello from events.k8s.io
type: Normal
`);
    assert.equal(await k(['get', 'events', 'web.1', '-o', 'jsonpath={.message} {.involvedObject.name} {.reportingComponent}']), 'hello from events.k8s.io web example.com/e2e');
    assert.equal(await k(['get', 'events.v1.events.k8s.io', 'web.1', '-o', 'jsonpath={.apiVersion} {.note} {.regarding.name}']), 'events.k8s.io/v1 hello from events.k8s.io web');
    assert.match(await k(['get', 'events.v1.events.k8s.io']), /^\S+\s+Normal\s+Tested\s+pod\/web\s+hello from events.k8s.io$/m);
    assert.match(await k(['get', 'events.v1.events.k8s.io', '--field-selector', 'regarding.name=web', '-o', 'name']), /web\.1/);
    assert.equal((await k(['get', 'events.v1.events.k8s.io', '--field-selector', 'regarding.name=other', '-o', 'name'])).trim(), '');
    assert.match(await refused(['get', 'events.v1.events.k8s.io', '--field-selector', 'involvedObject.name=web']), /field label not supported: involvedObject.name/);
    // The short name `ev` is both groups' (as kube-apiserver's discovery has it): kubectl takes the
    // core one (kubectl 1.33 warns that events.events.k8s.io could match too, as against Kubernetes).
    const ev = await kubectl(api.kubeconfig, ['get', 'ev', '-o', 'name']);
    assert.deepEqual([ev.code, ev.stdout.trim()], [0, 'event/web.1']);
    const events = await k(['events', '-n', 'default']);
    assert.match(events, /LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE/);
    assert.match(events, /Normal\s+Tested\s+Pod\/web\s+hello from events.k8s.io/);
    assert.match(
      await refused(['create', '-f', '-'], 'apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: bad, namespace: default}\neventTime: "2026-01-01T00:00:00.000000Z"\nreportingInstance: i\naction: A\nreason: R\nregarding: {kind: Pod, namespace: default, name: web}\ntype: Info\n'),
      /reportingController: Required value/,
    );
    assert.match(await k(['explain', 'events.regarding', '--api-version=events.k8s.io/v1']), /FIELD: regarding <ObjectReference>/);
    await k(['delete', 'events.v1.events.k8s.io', 'web.1']);
  });
});
