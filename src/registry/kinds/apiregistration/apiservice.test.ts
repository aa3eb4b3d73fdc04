// APIService: ValidateAPIService's paths and messages, the Available condition kubelite sets (Local
// True; False for an aggregated server it does not proxy to), kubectl's columns, and the local
// APIServices derived from the served kinds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allKinds } from '../../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import { create, lines, update } from '../kinds.testutil.js';
import { apiServicePrinter, apiServiceStrategy } from './apiservice.js';
import { API_VERSION_PRIORITIES, localAPIServices, servedGroupVersions } from './local-apiservices.js';

const svc = (name: string, spec: KubeObject): KubeObject => ({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name }, spec: { groupPriorityMinimum: 1000, versionPriority: 15, ...spec } });
const errorsOf = (o: KubeObject): string[] => lines(create(o).errors);

test('ValidateAPIService: Kubernetes field paths and messages', () => {
  const cases: Array<[KubeObject, string[]]> = [
    [svc('v1.foo.example.com', { group: 'bar.example.com', version: 'v1' }), ['metadata.name: Invalid value: "v1.foo.example.com": must be `spec.version+"."+spec.group`: "v1.bar.example.com"']],
    [svc('a/b', { group: 'g.io', version: 'v1' }), ["metadata.name: Invalid value: \"a/b\": may not contain '/'"]],
    [svc('v2.', { group: '', version: 'v2' }), ['spec.group: Required value: only v1 may have an empty group and it better be legacy kube']],
    [svc('v1.Bad_Group', { group: 'Bad_Group', version: 'v1' }), [
      `spec.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]],
    [svc('1v.g.io', { group: 'g.io', version: '1v' }), [
      `spec.version: Invalid value: "1v": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ]],
    [svc('v1.g.io', { group: 'g.io', version: 'v1', groupPriorityMinimum: 20001, versionPriority: 0 }), [
      'spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
    ]],
    [svc('v1.g.io', { group: 'g.io', version: 'v1', caBundle: 'AAEC', insecureSkipTLSVerify: true }), [
      'spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle',
      'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
    ]],
    [svc('v1.g.io', { group: 'g.io', version: 'v1', service: { port: 70000 } }), [
      'spec.service.namespace: Required value',
      'spec.service.name: Required value',
      'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    ]],
    [svc('v1.g.io', { group: 'g.io', version: 'v1', service: { namespace: 'ns', name: 's' }, caBundle: 'AAEC', insecureSkipTLSVerify: true }), ['spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present']],
  ];
  for (const [obj, want] of cases) assert.deepEqual(errorsOf(obj), want, JSON.stringify(obj));
  assert.deepEqual(errorsOf(svc('v1.', { group: '', version: 'v1' })), []);
});

test('Available: True (Local) for a local APIService, False for one naming a service, kept across updates', () => {
  const local = create(svc('v1.g.io', { group: 'g.io', version: 'v1' })).obj as any;
  assert.deepEqual(local.status.conditions, [{ type: 'Available', status: 'True', lastTransitionTime: '2026-11-22T02:34:38Z', reason: 'Local', message: 'Local APIServices are always available' }]);
  const remote = create(svc('v1.g.io', { group: 'g.io', version: 'v1', service: { namespace: 'ns', name: 's' } })).obj as any;
  assert.equal(remote.spec.service.port, 443);
  assert.equal(remote.status.conditions[0].status, 'False');
  assert.equal(remote.status.conditions[0].reason, 'ServiceNotServed');
  assert.match(remote.status.conditions[0].message, /does not proxy to aggregated API servers/);
  // Pointing a local APIService at a service turns it unavailable.
  const moved = update({ ...local, spec: { ...local.spec, service: { namespace: 'ns', name: 's' } } }, local).obj as any;
  assert.equal(moved.status.conditions[0].status, 'False');
  assert.deepEqual(
    lines(apiServiceStrategy.validateStatusUpdate!({ ...local, status: { conditions: [{ type: 'Available', status: 'Maybe' }, { status: 'True' }] } }, local, { kind: undefined as never, now: 0, newUid: () => '' })),
    ['status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"', 'status.conditions[1].type: Required value: type is required'],
  );
});

test('kubectl columns: NAME SERVICE AVAILABLE AGE', () => {
  const now = Date.parse('2026-11-22T02:34:38Z');
  assert.deepEqual(apiServicePrinter.columns.map((c) => c.name), ['Name', 'Service', 'Available', 'Age']);
  const local = create(svc('v1.g.io', { group: 'g.io', version: 'v1' })).obj;
  assert.deepEqual(apiServicePrinter.cells(local, now), ['v1.g.io', 'Local', 'True', '<unknown>']);
  const remote = create(svc('v1.g.io', { group: 'g.io', version: 'v1', service: { namespace: 'ns', name: 's' } })).obj;
  assert.deepEqual(apiServicePrinter.cells(remote, now), ['v1.g.io', 'ns/s', 'False (ServiceNotServed)', '<unknown>']);
  assert.deepEqual(apiServicePrinter.cells(svc('v1.g.io', {}), now), ['v1.g.io', 'Local', 'Unknown', '<unknown>']);
});

test('local APIServices: one per served group version, named <version>.<group>, with Kubernetes priorities', () => {
  const services = localAPIServices(allKinds);
  const byName = new Map(services.map((s) => [s.metadata!.name!, s.spec!]));
  assert.deepEqual(byName.get('v1.'), { service: null, group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
  assert.deepEqual(byName.get('v1.apps'), { service: null, group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
  assert.deepEqual(byName.get('v1.flowcontrol.apiserver.k8s.io'), { service: null, group: 'flowcontrol.apiserver.k8s.io', version: 'v1', groupPriorityMinimum: 16100, versionPriority: 21 });
  assert.deepEqual(byName.get('v1beta1.metrics.k8s.io'), { service: null, group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100 });
  assert.equal(services.every((s) => s.metadata!.labels!['kube-aggregator.kubernetes.io/automanaged'] === 'onstart'), true);
  // Every group version served, except the pre-1.16 ones Kubernetes 1.33 no longer has priorities for.
  const unlisted = servedGroupVersions(allKinds).filter(({ group, version }) => !byName.has(`${version}.${group}`)).map(({ group, version }) => `${group}/${version}`);
  assert.deepEqual(unlisted.sort(), ['apps/v1beta1', 'apps/v1beta2', 'extensions/v1beta1']);
  // Derived: a group added to the kinds table appears without a change to the registration.
  const added = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers' } as KindVersion;
  assert.deepEqual(localAPIServices([...allKinds, added]).find((s) => s.metadata!.name === 'v2.autoscaling')?.spec, { service: null, group: 'autoscaling', version: 'v2', groupPriorityMinimum: 17500, versionPriority: 30 });
  for (const [gv, [g, v]] of Object.entries(API_VERSION_PRIORITIES)) assert.ok(g > 0 && g <= 20000 && v > 0 && v <= 1000, gv);
  // The registered objects are valid APIServices.
  for (const s of services) assert.deepEqual(errorsOf(s as KubeObject), [], s.metadata!.name!);
});
