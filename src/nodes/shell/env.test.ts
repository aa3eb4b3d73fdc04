import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod, Service, ServicePort } from '../../api/types.js';
import { containerEnvironment, DEFAULT_PATH, type EnvSources } from './env.js';
import { expand, mappingFor } from './expansion.js';

// Kubernetes' own cases (third_party/forked/golang/expansion/expand_test.go), with both mapping shapes.
const EXPANSION_CASES: Array<[string, string]> = [
  ['$(VAR_A)', 'A'],
  ['$(VAR_A)-$(VAR_A)', 'A-A'],
  ['$(VAR_A)-1', 'A-1'],
  ['___$(VAR_B)___', '___B___'],
  ['___$(VAR_C)', '___C'],
  ['$(VAR_A)_$(VAR_B)_$(VAR_C)', 'A_B_C'],
  ['$$(VAR_B)_$(VAR_A)', '$(VAR_B)_A'],
  ['$$(VAR_A)_$$(VAR_B)', '$(VAR_A)_$(VAR_B)'],
  ['f000-$$VAR_A', 'f000-$VAR_A'],
  ['foo\\$(VAR_C)bar', 'foo\\Cbar'],
  ['foo\\\\$(VAR_C)bar', 'foo\\\\Cbar'],
  ['foo\\\\\\\\$(VAR_A)bar', 'foo\\\\\\\\Abar'],
  ['$(VAR_A$(VAR_B))', '$(VAR_A$(VAR_B))'],
  ['$(VAR_A$(VAR_B)', '$(VAR_A$(VAR_B)'],
  ['$(VAR_REF)', '$(VAR_A)'],
  ['%%$(VAR_REF)--$(VAR_REF)%%', '%%$(VAR_A)--$(VAR_A)%%'],
  ['foo$(VAR_EMPTY)bar', 'foobar'],
  ['foo$(VAR_Awhoops!', 'foo$(VAR_Awhoops!'],
  ['f00__(VAR_A)__', 'f00__(VAR_A)__'],
  ['$?_boo_$!', '$?_boo_$!'],
  ['$VAR_A', '$VAR_A'],
  ['$(VAR_DNE)', '$(VAR_DNE)'],
  ['$$$$$$(BIG_MONEY)', '$$$(BIG_MONEY)'],
  ['$$$$$$(VAR_A)', '$$$(VAR_A)'],
  ['$$$$$$$(GOOD_ODDS)', '$$$$(GOOD_ODDS)'],
  ['$$$$$$$(VAR_A)', '$$$A'],
  ['$VAR_A)', '$VAR_A)'],
  ['${VAR_A}', '${VAR_A}'],
  ['$(VAR_B)_______$(A', 'B_______$(A'],
  ['$(VAR_C)_______$(', 'C_______$('],
  ['$(VAR_A)foobarzab$', 'Afoobarzab$'],
  ['foo-\\$(VAR_A', 'foo-\\$(VAR_A'],
  ['--$($($($($--', '--$($($($($--'],
  ['$($($($($--foo$(', '$($($($($--foo$('],
  ['foo0--$($($($(', 'foo0--$($($($('],
  ['$(foo$$var)', '$(foo$$var)'],
  ['\n', '\n'],
];

test('$(VAR) expansion: Kubernetes expansion tests, one map and two', () => {
  const single = mappingFor(new Map(Object.entries({ VAR_A: 'A', VAR_B: 'B', VAR_C: 'C', VAR_REF: '$(VAR_A)', VAR_EMPTY: '' })));
  const dual = mappingFor(new Map(Object.entries({ VAR_A: 'A', VAR_EMPTY: '' })), new Map(Object.entries({ VAR_B: 'B', VAR_C: 'C', VAR_REF: '$(VAR_A)' })));
  for (const [input, expected] of EXPANSION_CASES) {
    assert.equal(expand(input, single), expected, input);
    assert.equal(expand(input, dual), expected, input);
  }
});

const b64 = (s: string): string => Buffer.from(s).toString('base64');

function sources(services: Service[] = []): EnvSources {
  return {
    configMap: async (ns, name) => (ns === 'team' && name === 'cfg' ? { data: { LEVEL: 'debug', MODE: 'fast' } } : undefined),
    secret: async (ns, name) => (ns === 'team' && name === 'sec' ? { data: { TOKEN: b64('t0k'), MODE: b64('secret-mode') } } : undefined),
    services: async () => services,
    nodeAllocatable: { cpu: '4', memory: '8Gi' },
  };
}

function pod(container: Container, extra: Partial<NonNullable<Pod['spec']>> = {}): Pod {
  return {
    metadata: { name: 'web-0', namespace: 'team', uid: 'uid-1', labels: { app: 'web' } },
    spec: { nodeName: 'node-1', serviceAccountName: 'sa', containers: [container], ...extra },
    status: { podIP: '10.64.0.7', podIPs: [{ ip: '10.64.0.7' }], hostIP: '10.0.0.2' },
  };
}

test('env: values with $(VAR) expansion in order, envFrom with prefix, valueFrom of every kind', async () => {
  const c: Container = {
    name: 'app',
    resources: { limits: { memory: '128Mi' }, requests: { cpu: '250m' } },
    envFrom: [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'sec' }, prefix: 'S_' }],
    env: [
      { name: 'FOO', value: 'bar' },
      { name: 'ZOO', value: '$(FOO)-1' },
      { name: 'BLU', value: '$(ZOO)-2' },
      { name: 'LATER', value: '$(DEFINED_AFTER)' },
      { name: 'DEFINED_AFTER', value: 'x' },
      { name: 'FROM_CM', value: 'level=$(LEVEL)' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
      { name: 'SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
      { name: 'MEM_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
      { name: 'CPU_REQ_M', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
      { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu' } } },
      { name: 'CM_KEY', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'LEVEL' } } },
      { name: 'SECRET_KEY', valueFrom: { secretKeyRef: { name: 'sec', key: 'TOKEN' } } },
      { name: 'OPT_MISSING', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'NOPE', optional: true } } },
      { name: 'OPT_NO_CM', valueFrom: { secretKeyRef: { name: 'nope', key: 'x', optional: true } } },
      { name: 'MODE', value: 'env-wins' },
    ],
  };
  const env = await containerEnvironment(pod(c), 'app', sources());
  assert.deepEqual(env, {
    PATH: DEFAULT_PATH,
    HOSTNAME: 'web-0',
    LEVEL: 'debug',
    MODE: 'env-wins',
    S_TOKEN: 't0k',
    S_MODE: 'secret-mode',
    FOO: 'bar',
    ZOO: 'bar-1',
    BLU: 'bar-1-2',
    LATER: '$(DEFINED_AFTER)',
    DEFINED_AFTER: 'x',
    FROM_CM: 'level=debug',
    POD_NAME: 'web-0',
    POD_NS: 'team',
    POD_IP: '10.64.0.7',
    NODE: 'node-1',
    APP: 'web',
    SA: 'sa',
    MEM_MI: '128',
    CPU_LIMIT: '4',
    CPU_REQ_M: '250',
    CPU_REQ: '1',
    CM_KEY: 'debug',
    SECRET_KEY: 't0k',
    HOME: '/root',
  });
});

test('env: missing sources fail as the kubelet does unless optional', async () => {
  const cases: Array<[Container, string | undefined]> = [
    [{ name: 'app', envFrom: [{ configMapRef: { name: 'nope' } }] }, 'configmap "nope" not found'],
    [{ name: 'app', envFrom: [{ configMapRef: { name: 'nope', optional: true } }] }, undefined],
    [{ name: 'app', envFrom: [{ secretRef: { name: 'nope' } }] }, 'secret "nope" not found'],
    [{ name: 'app', env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'NOPE' } } }] }, "couldn't find key NOPE in ConfigMap team/cfg"],
    [{ name: 'app', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'sec', key: 'NOPE' } } }] }, "couldn't find key NOPE in Secret team/sec"],
    [{ name: 'app', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'spec.nope' } } }] }, 'unsupported fieldPath: spec.nope'],
  ];
  for (const [c, error] of cases) {
    if (error === undefined) await containerEnvironment(pod(c), c, sources());
    else await assert.rejects(containerEnvironment(pod(c), c, sources()), { message: error });
  }
});

const svc = (ns: string, name: string, clusterIP: string, ports: ServicePort[]): Service => ({
  metadata: { namespace: ns, name },
  spec: { clusterIP, ports },
});

test('env: service links of the namespace (when enabled) and always default/kubernetes', async () => {
  const services = [
    svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]),
    svc('team', 'my-db', '10.96.0.20', [{ name: 'pg', port: 5432 }, { name: 'metrics', port: 9187, protocol: 'UDP' }]),
    svc('team', 'headless', 'None', [{ port: 80 }]),
    svc('other', 'elsewhere', '10.96.0.30', [{ port: 80 }]),
  ];
  const c: Container = { name: 'app', env: [{ name: 'DB', value: 'host=$(MY_DB_SERVICE_HOST)' }, { name: 'MY_DB_SERVICE_PORT', value: 'overridden' }] };
  const env = await containerEnvironment(pod(c), c, sources(services));
  assert.equal(env.DB, 'host=10.96.0.20');
  assert.equal(env.MY_DB_SERVICE_PORT, 'overridden');
  assert.deepEqual(
    Object.entries(env).filter(([k]) => k.startsWith('KUBERNETES_') || k.startsWith('MY_DB_')),
    [
      ['MY_DB_SERVICE_PORT', 'overridden'],
      ['KUBERNETES_SERVICE_HOST', '10.96.0.1'],
      ['KUBERNETES_SERVICE_PORT', '443'],
      ['KUBERNETES_SERVICE_PORT_HTTPS', '443'],
      ['KUBERNETES_PORT', 'tcp://10.96.0.1:443'],
      ['KUBERNETES_PORT_443_TCP', 'tcp://10.96.0.1:443'],
      ['KUBERNETES_PORT_443_TCP_PROTO', 'tcp'],
      ['KUBERNETES_PORT_443_TCP_PORT', '443'],
      ['KUBERNETES_PORT_443_TCP_ADDR', '10.96.0.1'],
      ['MY_DB_SERVICE_HOST', '10.96.0.20'],
      ['MY_DB_SERVICE_PORT_PG', '5432'],
      ['MY_DB_SERVICE_PORT_METRICS', '9187'],
      ['MY_DB_PORT', 'tcp://10.96.0.20:5432'],
      ['MY_DB_PORT_5432_TCP', 'tcp://10.96.0.20:5432'],
      ['MY_DB_PORT_5432_TCP_PROTO', 'tcp'],
      ['MY_DB_PORT_5432_TCP_PORT', '5432'],
      ['MY_DB_PORT_5432_TCP_ADDR', '10.96.0.20'],
      ['MY_DB_PORT_9187_UDP', 'udp://10.96.0.20:9187'],
      ['MY_DB_PORT_9187_UDP_PROTO', 'udp'],
      ['MY_DB_PORT_9187_UDP_PORT', '9187'],
      ['MY_DB_PORT_9187_UDP_ADDR', '10.96.0.20'],
    ],
  );
  assert.equal(env.HEADLESS_SERVICE_HOST, undefined);
  assert.equal(env.ELSEWHERE_SERVICE_HOST, undefined);
  const noLinks = await containerEnvironment(pod(c, { enableServiceLinks: false }), c, sources(services));
  assert.equal(noLinks.KUBERNETES_SERVICE_HOST, '10.96.0.1');
  assert.equal(noLinks.MY_DB_SERVICE_HOST, undefined);
  assert.equal(noLinks.DB, 'host=$(MY_DB_SERVICE_HOST)');
});
