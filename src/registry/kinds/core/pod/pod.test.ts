import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../../api/schema/kind.js';
import { isDNS1123Label, isEnvVarName, isQualifiedName, isValidLabelValue } from '../../../../machinery/validation/names.js';
import { computePodQOS, podGracePeriodSeconds, validateBinding } from './strategy.js';
import { create, created, ctxFor, edit, kindOf, lines, OBJECTS, readJSON, strategyFor, subresourceStrategyFor, update } from '../../kinds.testutil.js';

const base = readJSON(`${OBJECTS}/Pod.minimal.request.json`);
const errorsOf = (fn: (p: any) => void): string[] => lines(create(edit(base, fn)).errors);
const container = (extra: Record<string, unknown> = {}) => ({ name: 'c', image: 'nginx', ...extra });

const cases: [string, (p: any) => void, string[]][] = [
  ['a valid pod', () => {}, []],
  ['no containers', (p) => (p.spec.containers = []), ['spec.containers: Required value']],
  ['container name missing and image missing', (p) => (p.spec.containers = [{ name: '', image: '' }]), ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value']],
  ['container names are DNS labels', (p) => (p.spec.containers[0].name = 'Web'), [`spec.containers[0].name: Invalid value: "Web": ${isDNS1123Label('Web')[0]}`]],
  [
    'names unique across init and regular containers',
    (p) => (p.spec.initContainers = [container()]),
    ['spec.initContainers[0].name: Duplicate value: "c"'],
  ],
  [
    'ports: number range, required, names, protocols, duplicate names',
    (p) =>
      (p.spec.containers[0].ports = [
        { containerPort: 0 },
        { containerPort: 70000, name: 'way-too-long-port-name' },
        { containerPort: 80, protocol: 'HTTP', name: 'web' },
        { containerPort: 81, name: 'web' },
      ]),
    [
      'spec.containers[0].ports[0].containerPort: Required value',
      'spec.containers[0].ports[1].name: Invalid value: "way-too-long-port-name": must be no more than 15 characters',
      'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[2].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[0].ports[3].name: Duplicate value: "web"',
    ],
  ],
  [
    'host ports may not collide within the pod',
    (p) => (p.spec.containers = [container({ ports: [{ containerPort: 80, hostPort: 8080 }] }), container({ name: 'd', ports: [{ containerPort: 81, hostPort: 8080 }] })]),
    ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
  ],
  [
    'with host networking, hostPort must equal containerPort',
    (p) => {
      p.spec.hostNetwork = true;
      p.spec.containers[0].ports = [{ containerPort: 80, hostPort: 81 }];
    },
    ['spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true'],
  ],
  [
    'env names and sources',
    (p) =>
      (p.spec.containers[0].env = [
        { name: '1BAD', value: 'x' },
        { name: 'A', valueFrom: {} },
        { name: 'B', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'C', valueFrom: { fieldRef: { fieldPath: 'spec.nothing' } } },
        { name: 'D', valueFrom: { configMapKeyRef: { name: 'cm', key: '' } } },
      ]),
    [
      `spec.containers[0].env[0].name: Invalid value: "1BAD": ${isEnvVarName('1BAD')[0]}`,
      'spec.containers[0].env[1].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      'spec.containers[0].env[2].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
      'spec.containers[0].env[3].valueFrom.fieldRef.fieldPath: Invalid value: "spec.nothing": error converting fieldPath: field label not supported: spec.nothing',
      'spec.containers[0].env[4].valueFrom.configMapKeyRef.key: Required value',
    ],
  ],
  [
    'envFrom needs exactly one source',
    (p) => (p.spec.containers[0].envFrom = [{ prefix: 'P_' }, { configMapRef: { name: 'a' }, secretRef: { name: 'b' } }]),
    [
      'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      'spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time',
    ],
  ],
  [
    'volume mounts must name a declared volume, once per path',
    (p) => {
      p.spec.volumes = [{ name: 'data', emptyDir: {} }];
      p.spec.containers[0].volumeMounts = [
        { name: 'data', mountPath: '/d' },
        { name: 'missing', mountPath: '/d' },
      ];
    },
    ['spec.containers[0].volumeMounts[1].name: Not found: "missing"', 'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique'],
  ],
  [
    'volumes: unique names, one source, source fields',
    (p) =>
      (p.spec.volumes = [
        { name: 'a', emptyDir: {}, hostPath: { path: '/x' } },
        { name: 'b', configMap: {} },
        { name: 'c', configMap: { name: 'cm' } },
        { name: 'c', secret: { secretName: 's', defaultMode: 1000 } },
        { name: 'Bad', emptyDir: {} },
      ]),
    [
      'spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[1].configMap.name: Required value',
      // Only volumes without errors count as declared: [1] is not, so [2] is no duplicate of it.
      'spec.volumes[3].secret.defaultMode: Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive',
      'spec.volumes[3].name: Duplicate value: "c"',
      `spec.volumes[4].name: Invalid value: "Bad": ${isDNS1123Label('Bad')[0]}`,
    ],
  ],
  [
    'resources: requests within limits, non-overcommitable resources equal, hugepages need cpu or memory',
    (p) =>
      (p.spec.containers = [
        container({ resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } }),
        container({ name: 'd', resources: { requests: { 'example.com/gpu': '1' } } }),
        container({ name: 'e', resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } } }),
        container({ name: 'f', resources: { limits: { 'hugepages-2Mi': '4Mi' } } }),
        container({ name: 'g', resources: { limits: { cpu: '-1', pods: '1' } } }),
      ]),
    [
      'spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit',
      'spec.containers[1].resources.limits: Required value: Limit must be set for non overcommitable resources',
      'spec.containers[2].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit',
      'spec.containers[3].resources: Forbidden: HugePages require cpu or memory',
      'spec.containers[4].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.containers[4].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers',
      'spec.containers[4].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.containers[4].resources.requests[pods]: Invalid value: "pods": must be a standard resource for containers',
    ],
  ],
  [
    'probes: one handler, success threshold 1 for liveness and startup, no grace period on readiness',
    (p) => {
      p.spec.containers[0].livenessProbe = { httpGet: { port: 80 }, exec: { command: ['true'] }, successThreshold: 2 };
      p.spec.containers[0].readinessProbe = { terminationGracePeriodSeconds: 5 };
      p.spec.containers[0].startupProbe = { tcpSocket: { port: 'x_y' } };
    },
    [
      'spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      'spec.containers[0].readinessProbe: Required value: must specify a handler type',
      'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
      'spec.containers[0].startupProbe.tcpSocket.port: Invalid value: "x_y": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ],
  ],
  [
    'init containers: no probes or lifecycle unless restartPolicy=Always, which is the only value',
    (p) => {
      p.spec.initContainers = [container({ name: 'i', livenessProbe: { exec: { command: ['x'] } } }), container({ name: 'j', restartPolicy: 'Never' })];
      p.spec.containers[0].restartPolicy = 'Always';
    },
    [
      'spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[1].restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ],
  ],
  [
    'restartPolicy, dnsPolicy and preemptionPolicy values',
    (p) => {
      p.spec.restartPolicy = 'Sometimes';
      p.spec.dnsPolicy = 'Google';
      p.spec.preemptionPolicy = 'Maybe';
    },
    [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      'spec.preemptionPolicy: Unsupported value: "Maybe": supported values: "PreemptLowerPriority", "Never"',
    ],
  ],
  ['dnsPolicy None needs a dnsConfig', (p) => (p.spec.dnsPolicy = 'None'), ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
  [
    'node selector labels, hostname and subdomain',
    (p) => {
      p.spec.nodeSelector = { 'bad key': 'bad value' };
      p.spec.hostname = 'Host';
      p.spec.subdomain = 'a.b';
    },
    [
      `spec.nodeSelector: Invalid value: "bad key": ${isQualifiedName('bad key')[0]}`,
      `spec.nodeSelector: Invalid value: "bad value": ${isValidLabelValue('bad value')[0]}`,
      `spec.hostname: Invalid value: "Host": ${isDNS1123Label('Host')[0]}`,
      'spec.subdomain: Invalid value: "a.b": must not contain dots',
    ],
  ],
  [
    'activeDeadlineSeconds must be positive',
    (p) => (p.spec.activeDeadlineSeconds = 0),
    ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
  ],
  [
    'tolerations',
    (p) =>
      (p.spec.tolerations = [
        { key: 'a', operator: 'Exists', value: 'x' },
        { operator: 'Equal', value: 'x' },
        { key: 'b', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 },
        { key: 'c', operator: 'Less' },
        { key: 'd', operator: 'Exists', effect: 'Sometimes' },
      ]),
    [
      "spec.tolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'",
      'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      "spec.tolerations[2].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      'spec.tolerations[3].operator: Unsupported value: "Less": supported values: "Equal", "Exists"',
      'spec.tolerations[4].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ],
  ],
  [
    'affinity shape',
    (p) =>
      (p.spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'a', operator: 'In' }] } }],
        },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'x' } }, topologyKey: '' }] },
      }),
    [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${isQualifiedName('')[0]}`,
      `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${isQualifiedName('')[1]}`,
    ],
  ],
  [
    'security contexts: user and group ids, shareProcessNamespace with hostPID',
    (p) => {
      p.spec.hostPID = true;
      p.spec.shareProcessNamespace = true;
      p.spec.securityContext = { runAsUser: -1 };
      p.spec.containers[0].securityContext = { runAsGroup: 4294967296, allowPrivilegeEscalation: false, privileged: true };
    },
    [
      'spec.containers[0].securityContext: Invalid value: core.SecurityContext{...}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      'spec.containers[0].securityContext.runAsGroup: Invalid value: 4294967296: must be between 0 and 4294967295, inclusive',
      'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 4294967295, inclusive',
      'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
    ].sort(),
  ],
  [
    'ephemeral containers cannot be set on create',
    (p) => (p.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }]),
    ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
  ],
  [
    'a projected service account token needs a service account',
    (p) => (p.spec.volumes = [{ name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }]),
    ['spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set'],
  ],
  [
    'image pull policy values',
    (p) => (p.spec.containers[0].imagePullPolicy = 'Sometimes'),
    ['spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'],
  ],
];

test('pod validation, rule by rule (Kubernetes messages and field paths)', () => {
  for (const [name, fn, want] of cases) {
    const got = errorsOf(fn);
    assert.deepEqual(name.startsWith('security contexts') ? got.sort() : got, want, name);
  }
});

test('pod create: status Pending with the QoS class, scheduling-gated condition', () => {
  const { obj } = create(edit(base, (p) => (p.spec.schedulingGates = [{ name: 'example.com/gate' }])));
  assert.deepEqual(obj.status, {
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }],
    qosClass: 'BestEffort',
  });
});

test('QoS classes', () => {
  const pod = (containers: unknown[]): KubeObject => ({ spec: { containers } });
  assert.equal(computePodQOS(pod([{ resources: {} }])), 'BestEffort');
  assert.equal(computePodQOS(pod([{ resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } } }])), 'Guaranteed');
  assert.equal(computePodQOS(pod([{ resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } } }])), 'Burstable');
  assert.equal(computePodQOS(pod([{ resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }])), 'Burstable');
  assert.equal(
    computePodQOS(pod([{ resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } } }, { resources: {} }])),
    'Burstable',
    'every container needs cpu and memory limits',
  );
  assert.equal(computePodQOS(created('Pod.created.json')), 'Burstable');
  assert.equal(computePodQOS(pod([{ resources: { requests: { cpu: '0' } } }])), 'BestEffort', 'zero requests do not count');
});

test('grace period of a delete: the pod’s own, 0 when unscheduled or terminal, negative becomes 1', () => {
  const bound = { spec: { nodeName: 'n1', terminationGracePeriodSeconds: 45 }, status: { phase: 'Running' } };
  assert.equal(podGracePeriodSeconds(bound), 45);
  assert.equal(podGracePeriodSeconds(bound, 10), 10);
  assert.equal(podGracePeriodSeconds({ spec: { terminationGracePeriodSeconds: 45 } }), 0);
  assert.equal(podGracePeriodSeconds({ ...bound, status: { phase: 'Succeeded' } }, 30), 0);
  assert.equal(podGracePeriodSeconds({ ...bound, spec: { nodeName: 'n1', terminationGracePeriodSeconds: -5 } }), 1);
  const k = kindOf(created('Pod.created.json'));
  assert.equal(strategyFor(k.group, k.resource).defaultGracePeriodSeconds!(created('Pod.created.json')), 0, 'the vector pod was never scheduled');
});

const old = created('Pod.pb.json');
const updateLines = (fn: (p: any) => void, from: KubeObject = old): string[] => lines(update(edit(from, fn), from).errors);

test('pod updates: images, activeDeadlineSeconds, added tolerations and labels are allowed', () => {
  assert.deepEqual(updateLines((p) => (p.spec.containers[0].image = 'nginx:1.27')), []);
  assert.deepEqual(updateLines((p) => (p.spec.activeDeadlineSeconds = 100)), []);
  assert.deepEqual(updateLines((p) => p.spec.tolerations.push({ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 })), []);
  assert.deepEqual(updateLines((p) => (p.spec.tolerations[1].tolerationSeconds = 10)), []);
  assert.deepEqual(updateLines((p) => (p.metadata.labels = { a: 'b' })), []);
  const negative = edit(old, (p) => (p.spec.terminationGracePeriodSeconds = -1));
  assert.deepEqual(updateLines((p) => (p.spec.terminationGracePeriodSeconds = 1), negative), []);
});

test('pod updates: what is refused', () => {
  assert.deepEqual(updateLines((p) => p.spec.containers.push({ name: 'x', image: 'y', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' })), [
    'spec.containers: Forbidden: pod updates may not add or remove containers',
  ]);
  assert.deepEqual(updateLines((p) => (p.spec.activeDeadlineSeconds = 7200)), ['spec.activeDeadlineSeconds: Invalid value: 7200: must be less than or equal to previous value']);
  assert.deepEqual(updateLines((p) => delete p.spec.activeDeadlineSeconds), ['spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value']);
  assert.deepEqual(updateLines((p) => p.spec.tolerations.pop()), ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
  const forbidden = updateLines((p) => (p.spec.containers[0].ports = []));
  assert.equal(forbidden.length, 1);
  assert.match(forbidden[0]!, /^spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`, /);
  assert.deepEqual(updateLines((p) => (p.spec.containers[0].image = '')), ['spec.containers[0].image: Required value', 'spec.containers[0].image: Required value']);
});

test('pod status updates: spec kept, nodeName and qosClass fixed, terminated containers stay terminated', () => {
  const k = kindOf(old);
  const s = strategyFor(k.group, k.resource);
  const ctx = ctxFor(k);
  const next = edit(old, (p) => {
    p.spec.restartPolicy = 'Never';
    p.status.phase = 'Running';
  });
  s.prepareForStatusUpdate!(next, old, ctx);
  assert.equal((next.spec as any).restartPolicy, 'Always', 'pods/status keeps the spec');
  assert.deepEqual(lines(s.validateStatusUpdate!(next, old, ctx)), []);
  const qos = edit(old, (p) => (p.status.qosClass = 'Guaranteed'));
  assert.deepEqual(lines(s.validateStatusUpdate!(qos, old, ctx)), ['status.qosClass: Invalid value: "Guaranteed": field is immutable']);
  const neverPod = edit(old, (p) => {
    p.spec.restartPolicy = 'Never';
    p.status.containerStatuses = [{ name: 'app', state: { terminated: { exitCode: 0 } } }];
  });
  const restarted = edit(neverPod, (p) => (p.status.containerStatuses = [{ name: 'app', state: { running: {} } }]));
  assert.deepEqual(lines(s.validateStatusUpdate!(restarted, neverPod, ctx)), ['status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state']);
  const conditions = edit(old, (p) => (p.status.conditions = [{ type: 'bad type!', status: 'True' }]));
  assert.deepEqual(lines(s.validateStatusUpdate!(conditions, old, ctx)), [`metadata.conditions[0].Type: Invalid value: "bad type!": ${isQualifiedName('bad type!')[0]}`]);
});

test('warnings: deprecated node labels, non-functional annotations, negative grace periods, fractional memory, shadowed env', () => {
  const k = kindOf(old);
  const pod = edit(base, (p) => {
    p.metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' };
    p.spec.nodeSelector = { 'beta.kubernetes.io/arch': 'amd64' };
    p.spec.terminationGracePeriodSeconds = -1;
    p.spec.containers[0].resources = { limits: { memory: '1.5' } };
    p.spec.containers[0].env = [{ name: 'A', value: '1' }, { name: 'A', value: '2' }];
  });
  assert.deepEqual(strategyFor(k.group, k.resource).warnings!(pod, undefined), [
    'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
    'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
    'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    'spec.containers[0].resources.limits[memory]: fractional byte value "1.5" is invalid, must be an integer',
    'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
  ]);
  const d = created('Deployment.minimal.created.json');
  const dk = kindOf(d);
  const withOld = edit(d, (x) => (x.spec.template.spec.nodeSelector = { 'failure-domain.beta.kubernetes.io/zone': 'a' }));
  assert.deepEqual(strategyFor(dk.group, dk.resource).warnings!(withOld, undefined), [
    'spec.template.spec.nodeSelector[failure-domain.beta.kubernetes.io/zone]: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  ]);
});

test('pods/resize: cpu and memory change, QoS and everything else stay', () => {
  const burstable = edit(old, (p) => (p.spec.containers[1].resources = { limits: { memory: '256M' }, requests: { cpu: '100m', memory: '128974848' } }));
  const k = kindOf(burstable);
  const s = subresourceStrategyFor('', 'pods', 'resize')!;
  const ctx = ctxFor(k);
  const resize = (fn: (p: any) => void) => {
    const next = edit(burstable, fn);
    s.prepareForUpdate!(next, burstable, ctx);
    return { next, errors: lines(s.validateUpdate(next, burstable, ctx)) };
  };
  const grown = resize((p) => {
    p.spec.containers[1].resources.requests.cpu = '200m';
    p.spec.restartPolicy = 'Never';
  });
  assert.deepEqual(grown.errors, []);
  assert.equal((grown.next.spec as any).restartPolicy, 'Always', 'only resources come from the request');
  assert.equal((grown.next.spec as any).containers[1].resources.requests.cpu, '200m');
  assert.deepEqual(resize((p) => (p.spec.containers[1].resources.limits.memory = '200M')).errors, [
    'spec.containers[1].resources.limits[memory]: Forbidden: memory limits cannot be decreased unless resizePolicy is RestartContainer',
  ]);
  assert.deepEqual(resize((p) => delete p.spec.containers[1].resources.requests.cpu).errors, ['spec.containers[1].resources.requests: Forbidden: resource requests cannot be removed']);
  assert.deepEqual(resize((p) => (p.spec.containers[1].resources.limits['ephemeral-storage'] = '1Gi')).errors, ['spec: Forbidden: only cpu and memory resources are mutable']);
});

test('pods/binding: a Node target with a name', () => {
  assert.deepEqual(lines(validateBinding({ target: { kind: 'Node', name: 'n1' } })), []);
  assert.deepEqual(lines(validateBinding({ target: { kind: 'Pod' } })), ['target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"', 'target.name: Required value']);
});
