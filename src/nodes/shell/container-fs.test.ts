import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfigMap, Pod, Secret, VolumeMount } from '../../api/types.js';
import { containerFilesystem, type TokenRequest, type VolumeSources } from './container-fs.js';
import { run } from './shell.testutil.js';
import type { Vfs } from './vfs.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

const CONFIG_MAPS: Record<string, ConfigMap> = {
  app: { data: { 'app.conf': 'port=80\n', 'other.conf': 'x=1\n' }, binaryData: { 'logo.bin': b64('\x00\x01\x02') } },
  'kube-root-ca.crt': { data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\n' } },
};
const SECRETS: Record<string, Secret> = { creds: { data: { username: b64('admin'), password: b64('s3cret') } } };

function sources(tokens: TokenRequest[] = []): VolumeSources {
  return {
    configMap: async (ns, name) => (ns === 'team' ? CONFIG_MAPS[name] : undefined),
    secret: async (ns, name) => (ns === 'team' ? SECRETS[name] : undefined),
    serviceAccountToken: async (req) => {
      tokens.push(req);
      return `token-for-${req.serviceAccountName}`;
    },
    nodeAllocatable: { cpu: '4', memory: '8Gi' },
    dns: { nameservers: ['10.96.0.10'], searches: ['team.svc.cluster.local', 'svc.cluster.local', 'cluster.local'] },
  };
}

function pod(extra: Partial<NonNullable<Pod['spec']>> = {}, mounts: VolumeMount[] = []): Pod {
  return {
    metadata: { name: 'web-0', namespace: 'team', uid: 'uid-1', labels: { app: 'web', tier: 'front "end"' }, annotations: { note: 'n' } },
    spec: {
      serviceAccountName: 'builder',
      nodeName: 'kubelite-node-0',
      containers: [{ name: 'app', image: 'busybox', volumeMounts: mounts, resources: { limits: { memory: '64Mi' }, requests: { cpu: '250m' } } }],
      ...extra,
    },
    status: { podIP: '10.64.0.7', hostIP: '10.0.0.2' },
  };
}

async function sh(fs: Vfs, script: string): Promise<string> {
  const r = await run(script, { fs });
  assert.equal(r.stderr, '');
  return r.stdout;
}

test('the base layout: /bin lists the commands, /etc/hostname, /etc/hosts, /etc/resolv.conf, /tmp, /dev/null', async () => {
  const fs = await containerFilesystem(pod({ hostAliases: [{ ip: '1.2.3.4', hostnames: ['a.example', 'b.example'] }] }), 'app', sources(), { now: () => NOW });
  assert.equal(await sh(fs, 'cat /etc/hostname'), 'web-0\n');
  assert.equal(
    await sh(fs, 'cat /etc/hosts'),
    [
      '# Kubernetes-managed hosts file.',
      '127.0.0.1\tlocalhost',
      '::1\tlocalhost ip6-localhost ip6-loopback',
      'fe00::0\tip6-localnet',
      'fe00::0\tip6-mcastprefix',
      'fe00::1\tip6-allnodes',
      'fe00::2\tip6-allrouters',
      '10.64.0.7\tweb-0',
      '',
      '# Entries added by HostAliases.',
      '1.2.3.4\ta.example\tb.example',
      '',
    ].join('\n'),
  );
  assert.equal(await sh(fs, 'cat /etc/resolv.conf'), 'search team.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  const bin = (await sh(fs, 'ls /bin')).split('\n');
  for (const c of ['sh', 'ls', 'cat', 'tar', 'env', 'sleep', 'test', '[']) assert.ok(bin.includes(c), c);
  assert.equal(await sh(fs, 'ls -ld /tmp | head -c 10'), 'drwxrwxrwt');
  assert.equal(await sh(fs, 'echo gone > /dev/null; cat /dev/null; test -f /dev/termination-log && echo log'), 'log\n');
});

test('ConfigMap, Secret, downward API volumes: files, items, defaultMode and mode, the ..data layout, read-only', async () => {
  const p = pod(
    {
      volumes: [
        { name: 'cfg', configMap: { name: 'app' } },
        { name: 'one', configMap: { name: 'app', items: [{ key: 'app.conf', path: 'conf/app.conf', mode: 0o600 }], defaultMode: 0o444 } },
        { name: 'sec', secret: { secretName: 'creds', defaultMode: 0o400 } },
        {
          name: 'info',
          downwardAPI: {
            items: [
              { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
              { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
              { path: 'app', fieldRef: { fieldPath: "metadata.labels['app']" } },
              { path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } },
              { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu' } },
            ],
          },
        },
        { name: 'scratch', emptyDir: {} },
      ],
    },
    [
      { name: 'cfg', mountPath: '/etc/app' },
      { name: 'one', mountPath: '/etc/one' },
      { name: 'sec', mountPath: '/etc/secret' },
      { name: 'info', mountPath: '/etc/podinfo' },
      { name: 'scratch', mountPath: '/scratch' },
    ],
  );
  const fs = await containerFilesystem(p, 'app', sources(), { now: () => NOW });
  assert.equal(await sh(fs, 'cat /etc/app/app.conf /etc/app/other.conf'), 'port=80\nx=1\n');
  assert.ok(fs.readFile('/etc/app/logo.bin').equals(Buffer.from([0, 1, 2])));
  assert.equal(await sh(fs, 'ls /etc/app'), 'app.conf\nlogo.bin\nother.conf\n');
  assert.equal(
    await sh(fs, 'ls -la /etc/app | grep -- "->"'),
    [
      'lrwxrwxrwx    1 root     root            31 Jan  2 03:04 ..data -> ..2026_01_02_03_04_05.000000000',
      'lrwxrwxrwx    1 root     root            15 Jan  2 03:04 app.conf -> ..data/app.conf',
      'lrwxrwxrwx    1 root     root            15 Jan  2 03:04 logo.bin -> ..data/logo.bin',
      'lrwxrwxrwx    1 root     root            17 Jan  2 03:04 other.conf -> ..data/other.conf',
      '',
    ].join('\n'),
  );
  assert.equal(fs.stat('/etc/app/app.conf').mode, 0o644);
  assert.equal(await sh(fs, 'ls /etc/one; ls /etc/one/conf'), 'conf\napp.conf\n');
  assert.equal(fs.stat('/etc/one/conf/app.conf').mode, 0o600);
  assert.equal(await sh(fs, 'cat /etc/secret/username; echo; cat /etc/secret/password'), 'admin\ns3cret');
  assert.equal(fs.stat('/etc/secret/password').mode, 0o400);
  assert.equal(await sh(fs, 'cat /etc/podinfo/labels'), 'app="web"\ntier="front \\"end\\""');
  assert.equal(await sh(fs, 'cat /etc/podinfo/name /etc/podinfo/app; echo; cat /etc/podinfo/mem; echo; cat /etc/podinfo/cpu'), 'web-0web\n64\n4');
  const writes = await run('echo x > /etc/app/new; rm /etc/secret/username; echo ok > /scratch/f && cat /scratch/f', { fs });
  assert.equal(writes.stderr, "sh: can't create /etc/app/new: Read-only file system\nrm: can't remove '/etc/secret/username': Read-only file system\n");
  assert.equal(writes.stdout, 'ok\n');
});

test('the projected service account volume: token, ca.crt, namespace at /var/run/secrets/kubernetes.io/serviceaccount', async () => {
  const tokens: TokenRequest[] = [];
  const p = pod(
    {
      volumes: [
        {
          name: 'kube-api-access-abcde',
          projected: {
            defaultMode: 0o644,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
            ],
          },
        },
      ],
    },
    [{ name: 'kube-api-access-abcde', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
  );
  const fs = await containerFilesystem(p, 'app', sources(tokens));
  const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
  assert.equal(await sh(fs, `ls ${dir}`), 'ca.crt\nnamespace\ntoken\n');
  assert.equal(await sh(fs, `cat ${dir}/token; echo; cat ${dir}/namespace`), 'token-for-builder\nteam');
  assert.equal(await sh(fs, `cat ${dir}/ca.crt`), '-----BEGIN CERTIFICATE-----\n');
  assert.deepEqual(tokens, [{ namespace: 'team', serviceAccountName: 'builder', podName: 'web-0', podUID: 'uid-1', audience: undefined, expirationSeconds: 3607 }]);
});

test('subPath mounts one file or directory of a volume; subPathExpr expands the env', async () => {
  const p = pod({ volumes: [{ name: 'cfg', configMap: { name: 'app' } }, { name: 'data', emptyDir: {} }] }, [
    { name: 'cfg', mountPath: '/etc/app.conf', subPath: 'app.conf' },
    { name: 'data', mountPath: '/data/one', subPathExpr: '$(POD_NAME)' },
    { name: 'data', mountPath: '/all' },
  ]);
  p.spec!.containers![0]!.env = [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }];
  const fs = await containerFilesystem(p, 'app', sources());
  assert.equal(await sh(fs, 'cat /etc/app.conf'), 'port=80\n');
  assert.equal(await sh(fs, 'echo shared > /data/one/f; cat /all/web-0/f'), 'shared\n');
});

test('missing ConfigMaps, Secrets and keys: the kubelet errors, unless optional', async () => {
  const cases: Array<[NonNullable<Pod['spec']>['volumes'], string | undefined]> = [
    [[{ name: 'v', configMap: { name: 'nope' } }], 'MountVolume.SetUp failed for volume "v" : configmap "nope" not found'],
    [[{ name: 'v', configMap: { name: 'nope', optional: true } }], undefined],
    [[{ name: 'v', secret: { secretName: 'nope' } }], 'MountVolume.SetUp failed for volume "v" : secret "nope" not found'],
    [[{ name: 'v', configMap: { name: 'app', items: [{ key: 'missing', path: 'm' }] } }], 'MountVolume.SetUp failed for volume "v" : configmap references non-existent config key: missing'],
    [[{ name: 'v', configMap: { name: 'app', optional: true, items: [{ key: 'missing', path: 'm' }] } }], undefined],
    [[{ name: 'v', secret: { secretName: 'creds', items: [{ key: 'missing', path: 'm' }] } }], 'MountVolume.SetUp failed for volume "v" : references non-existent secret key: missing'],
    [[{ name: 'v', projected: { sources: [{ secret: { name: 'nope' } }, { configMap: { name: 'nope2' } }] } }], 'MountVolume.SetUp failed for volume "v" : secret "nope" not found, configmap "nope2" not found'],
  ];
  for (const [volumes, error] of cases) {
    const p = pod({ volumes }, [{ name: 'v', mountPath: '/v' }]);
    if (error === undefined) {
      const fs = await containerFilesystem(p, 'app', sources());
      assert.equal(await sh(fs, 'ls /v'), '');
    } else {
      await assert.rejects(containerFilesystem(p, 'app', sources()), { message: error });
    }
  }
  await assert.rejects(containerFilesystem(pod(), 'nope', sources()), /container nope not found/);
});
