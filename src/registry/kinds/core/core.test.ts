// ConfigMap, Secret, Service, Namespace, Node, Endpoints, Event, Lease, ControllerRevision rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isConfigMapKey, isDNS1035Label, isDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { goJSONObjectError } from './secret.js';
import { create, created, ctxFor, edit, kindOf, lines, OBJECTS, readJSON, strategyFor, subresourceStrategyFor, update, updateErrors } from '../kinds.testutil.js';

const errorsOf = (obj: Record<string, unknown>, fn: (o: any) => void): string[] => lines(create(edit(obj, fn)).errors);
const b64 = (s: string) => Buffer.from(s).toString('base64');

test('configmaps: keys, duplicates across data and binaryData, 1 MiB in total', () => {
  const cm = readJSON(`${OBJECTS}/ConfigMap.minimal.request.json`);
  assert.deepEqual(
    errorsOf(cm, (c) => {
      c.data = { 'bad key': 'x', dup: 'y', '..': 'z' };
      c.binaryData = { dup: b64('y') };
    }),
    [
      `data[..]: Invalid value: "..": must not be '..'`,
      `data[bad key]: Invalid value: "bad key": ${isConfigMapKey('bad key')[0]}`,
      'data[dup]: Invalid value: "dup": duplicate of key present in binaryData',
    ],
  );
  assert.deepEqual(errorsOf(cm, (c) => (c.data = { a: 'x'.repeat(1024 * 1024), b: 'y' })), ['[]: Too long: must have at most 1048576 bytes']);
  const old = edit(created('ConfigMap.minimal.created.json'), (c) => {
    c.immutable = true;
    c.data = { a: '1' };
  });
  assert.deepEqual(updateErrors(edit(old, (c) => (c.metadata.labels = { x: 'y' })), old), []);
  assert.deepEqual(
    updateErrors(
      edit(old, (c) => {
        c.immutable = false;
        c.binaryData = { b: b64('z') };
      }),
      old,
    ),
    ['immutable: Forbidden: field is immutable when `immutable` is set', 'binaryData: Forbidden: field is immutable when `immutable` is set'],
  );
});

test('secrets: type immutable, type-specific keys, stringData merged on update too', () => {
  const secret = readJSON(`${OBJECTS}/Secret.minimal.request.json`);
  assert.deepEqual(errorsOf(secret, (s) => (s.type = 'kubernetes.io/tls')), ['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
  assert.deepEqual(errorsOf(secret, (s) => (s.type = 'kubernetes.io/basic-auth')), ['data[username]: Required value', 'data[password]: Required value']);
  assert.deepEqual(errorsOf(secret, (s) => (s.type = 'kubernetes.io/ssh-auth')), ['data[ssh-privatekey]: Required value']);
  assert.deepEqual(errorsOf(secret, (s) => (s.type = 'kubernetes.io/service-account-token')), ['metadata.annotations[kubernetes.io/service-account.name]: Required value']);
  assert.deepEqual(
    errorsOf(secret, (s) => {
      s.type = 'kubernetes.io/dockerconfigjson';
      s.data = { '.dockerconfigjson': b64('{not json') };
    }),
    ['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input'],
  );
  assert.deepEqual(errorsOf(secret, (s) => (s.stringData = { 'bad/key': 'v' })), [`data[bad/key]: Invalid value: "bad/key": ${isConfigMapKey('bad/key')[0]}`]);
  assert.equal(goJSONObjectError('x'), "invalid character 'x' looking for beginning of value");
  assert.equal(goJSONObjectError('[1]'), 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  const old = created('Secret.minimal.created.json');
  assert.deepEqual(updateErrors(edit(old, (s) => (s.type = 'kubernetes.io/tls')), old), [
    'type: Invalid value: "kubernetes.io/tls": field is immutable',
    'data[tls.crt]: Required value',
    'data[tls.key]: Required value',
  ]);
  const merged = update(edit(old, (s) => (s.stringData = { extra: 'v' })), old).obj as any;
  assert.equal(merged.data.extra, b64('v'));
  assert.equal(merged.stringData, undefined);
});

test('services: ports, types, session affinity, traffic policies, cluster IPs', () => {
  const svc = readJSON(`${OBJECTS}/Service.minimal.request.json`);
  assert.deepEqual(errorsOf(svc, () => {}), []);
  assert.deepEqual(errorsOf(svc, (s) => (s.metadata.name = '1svc')), [`metadata.name: Invalid value: "1svc": ${isDNS1035Label('1svc')[0]}`]);
  assert.deepEqual(
    errorsOf(svc, (s) => {
      s.spec.ports = [
        { port: 80, protocol: 'TCP' },
        { name: 'b', port: 80, protocol: 'TCP', targetPort: 'Web!' },
        { name: 'b', port: 70000, protocol: 'HTTP' },
      ];
    }),
    [
      'spec.ports[0].name: Required value',
      'spec.ports[1].targetPort: Invalid value: "Web!": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.ports[2].name: Duplicate value: "b"',
      'spec.ports[2].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[2].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      // targetPort defaults to port.
      'spec.ports[2].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ],
  );
  assert.deepEqual(errorsOf(svc, (s) => (s.spec.type = 'Magic')), ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']);
  assert.deepEqual(errorsOf(svc, (s) => (s.spec.ports[0].nodePort = 30001)), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
  assert.deepEqual(
    errorsOf(svc, (s) => {
      s.spec.sessionAffinity = 'ClientIP';
      s.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 90000 } };
    }),
    ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be greater than 0 and less than 86400'],
  );
  assert.deepEqual(
    errorsOf(svc, (s) => {
      s.spec.type = 'ExternalName';
      s.spec.externalName = 'Not A Name';
      delete s.spec.ports;
    }),
    [`spec.externalName: Invalid value: "Not A Name": ${isDNS1123Subdomain('Not A Name')[0]}`],
  );
  assert.deepEqual(errorsOf(svc, (s) => (s.spec.externalIPs = ['127.0.0.1', 'nope'])), [
    'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    'spec.externalIPs[1]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
  ]);
  assert.deepEqual(errorsOf(svc, (s) => (s.spec.loadBalancerSourceRanges = ['10.0.0.0/8'])), ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"]);
  assert.deepEqual(errorsOf(svc, (s) => (s.spec.clusterIP = 'None')), [], 'a headless service');
  assert.deepEqual(errorsOf(svc, (s) => (s.spec.clusterIPs = ['10.0.0.1'])), ['spec.clusterIPs: Invalid value: []string{"10.0.0.1"}: must be empty when `clusterIP` is not specified']);
});

test('service updates: cluster IPs stay, allocated values are kept when omitted, node ports dropped when no longer used', () => {
  const old = created('Service.created.json');
  assert.deepEqual(updateErrors(edit(old, (s) => (s.spec.selector = { app: 'x' })), old), []);
  assert.deepEqual(
    updateErrors(
      edit(old, (s) => {
        s.spec.clusterIP = '10.0.0.99';
        s.spec.clusterIPs = ['10.0.0.99'];
      }),
      old,
    ),
    ['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.99"}: may not change once set'],
  );
  const omitted = update(
    edit(old, (s) => {
      delete s.spec.clusterIP;
      delete s.spec.clusterIPs;
      for (const p of s.spec.ports) delete p.nodePort;
      delete s.spec.healthCheckNodePort;
    }),
    old,
  );
  assert.deepEqual(lines(omitted.errors), []);
  assert.deepEqual((omitted.obj.spec as any).clusterIPs, ['10.0.0.54']);
  assert.deepEqual((omitted.obj.spec as any).ports.map((p: any) => p.nodePort), [32239, 31945, 32073]);
  assert.equal((omitted.obj.spec as any).healthCheckNodePort, 32081);
  const toClusterIP = update(
    edit(old, (s) => {
      s.spec.type = 'ClusterIP';
      delete s.spec.loadBalancerSourceRanges;
    }),
    old,
  );
  assert.deepEqual(lines(toClusterIP.errors), []);
  assert.equal((toClusterIP.obj.spec as any).ports[0].nodePort, undefined);
  assert.equal((toClusterIP.obj.spec as any).allocateLoadBalancerNodePorts, undefined);
  assert.equal((toClusterIP.obj.spec as any).healthCheckNodePort, undefined);
});

test('namespaces: DNS-1123 label names, finalizers, phase through /status, finalize subresource', () => {
  const ns = readJSON(`${OBJECTS}/Namespace.minimal.request.json`);
  assert.deepEqual(errorsOf(ns, (n) => (n.spec = { finalizers: ['custom'] })), ['spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified']);
  const old = created('Namespace.created.json');
  const k = kindOf(old);
  const s = strategyFor(k.group, k.resource);
  const kept = update(edit(old, (n) => (n.spec.finalizers = [])), old).obj as any;
  assert.deepEqual(kept.spec.finalizers, ['kubernetes'], 'spec.finalizers only change through /finalize');
  assert.deepEqual(lines(s.validateStatusUpdate!(edit(old, (n) => (n.status.phase = 'Terminating')), old, ctxFor(k))), [
    "status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty",
  ]);
  const finalize = subresourceStrategyFor('', 'namespaces', 'finalize')!;
  const next = edit(old, (n) => (n.spec.finalizers = ['x']));
  finalize.prepareForUpdate!(next, old, ctxFor(k));
  assert.deepEqual((next.spec as any).finalizers, ['x']);
  assert.deepEqual(lines(finalize.validateUpdate(next, old, ctxFor(k))), ['spec.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified']);
});

test('nodes: taints (reported under metadata.taints), capacities, pod CIDRs and provider ID', () => {
  const node = readJSON(`${OBJECTS}/Node.minimal.request.json`);
  assert.deepEqual(
    errorsOf(node, (n) => {
      n.spec = { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', effect: 'NoSchedule' }, { key: 'b', effect: '' }], podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] };
      n.status = { capacity: { cpu: '-1' } };
    }),
    [
      'metadata.taints[1]: Duplicate value: core.Taint{Key:"a", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
      'metadata.taints[2].effect: Required value',
      'status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0',
      // allocatable defaults to capacity.
      'status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0',
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family',
    ],
  );
  const old = created('Node.created.json');
  assert.deepEqual(updateErrors(edit(old, (n) => (n.spec.unschedulable = false)), old), []);
  assert.deepEqual(
    updateErrors(
      edit(old, (n) => {
        n.spec.podCIDRs = ['10.9.9.0/24'];
        n.spec.providerID = 'example://other';
      }),
      old,
    ),
    ['spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid', 'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid'],
  );
  const statusKept = update(edit(old, (n) => (n.status = {})), old).obj as any;
  assert.equal(statusKept.status.capacity.cpu, '8');
});

test('endpoints, events, leases and controller revisions', () => {
  const ep = readJSON(`${OBJECTS}/Endpoints.minimal.request.json`);
  assert.deepEqual(
    errorsOf(ep, (e) => (e.subsets = [{ addresses: [{ ip: '169.254.1.1' }], ports: [{ port: 0, protocol: 'TCP' }, { name: 'b', port: 80 }] }, {}])),
    [
      'subsets[0].addresses[0].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'subsets[1]: Required value: must specify `addresses` or `notReadyAddresses`',
    ],
  );
  const ev = readJSON(`${OBJECTS}/Event.minimal.request.json`);
  assert.deepEqual(errorsOf(ev, (e) => (e.metadata.name = 'Not_A_Subdomain')), [], 'core/v1 Events skip ObjectMeta validation');
  assert.deepEqual(errorsOf(ev, (e) => (e.involvedObject = { kind: 'Pod', namespace: 'other' })), ['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
  assert.deepEqual(errorsOf(ev, (e) => (e.eventTime = '2023-01-18T10:05:00.123456Z')), [
    'reportingController: Required value',
    'reportingController: Invalid value: "": name part must be non-empty',
    `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'reportingInstance: Required value',
    'action: Required value',
    'reason: Required value',
  ]);
  const lease = readJSON(`${OBJECTS}/Lease.minimal.request.json`);
  assert.deepEqual(errorsOf(lease, (l) => (l.spec = { leaseDurationSeconds: 0, leaseTransitions: -1 })), [
    'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
  ]);
  const cr = readJSON(`${OBJECTS}/ControllerRevision.minimal.request.json`);
  assert.deepEqual(errorsOf(cr, (c) => {
    delete c.data;
    c.revision = -1;
  }), ['data: Required value: data is mandatory', 'revision: Invalid value: -1: must be greater than or equal to 0']);
  const oldCr = created('ControllerRevision.created.json');
  assert.equal(updateErrors(edit(oldCr, (c) => (c.data = { other: true })), oldCr).length, 1);
});

test('strategy facts per kind: status, generation, create on update, name rules', () => {
  const table: [string, string, boolean, boolean, boolean][] = [
    ['', 'pods', true, true, false],
    ['', 'namespaces', true, false, false],
    ['', 'nodes', false, false, false],
    ['', 'events', false, false, true],
    ['', 'configmaps', false, false, false],
    ['', 'endpoints', false, false, true],
    ['', 'services', true, false, true],
    ['', 'serviceaccounts', false, false, true],
    ['', 'secrets', false, false, false],
    ['apps', 'deployments', true, true, false],
    ['apps', 'replicasets', true, true, false],
    ['apps', 'daemonsets', true, true, false],
    ['apps', 'statefulsets', true, true, false],
    ['apps', 'controllerrevisions', false, false, false],
    ['batch', 'jobs', true, true, false],
    ['batch', 'cronjobs', true, true, false],
    ['coordination.k8s.io', 'leases', false, false, true],
  ];
  for (const [group, resource, hasStatus, tracksGeneration, createOnUpdate] of table) {
    const s = strategyFor(group, resource);
    assert.deepEqual([s.hasStatus, s.tracksGeneration, s.allowCreateOnUpdate === true], [hasStatus, tracksGeneration, createOnUpdate], `${group}/${resource}`);
  }
  assert.deepEqual(strategyFor('', 'namespaces').nameValidator!('a.b', false), ['must not contain dots']);
  assert.equal(strategyFor('', 'services').nameValidator!('1abc', false).length, 1);
  assert.equal(strategyFor('', 'events').nameValidator, null);
  assert.throws(() => strategyFor('', 'widgets'), /no strategy for core\/widgets/);
});
