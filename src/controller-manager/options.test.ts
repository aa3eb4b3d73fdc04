import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseControllerManagerOptions, optionsForConfigz, OPTION_SPECS, type ParseResult } from './options.js';
import { canonicalControllerName, resolveControllers, CONTROLLERS } from './controllers.js';

function parse(...argv: string[]): ParseResult & { out: string; err: string } {
  let out = '';
  let err = '';
  const r = parseControllerManagerOptions(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { ...r, out, err };
}

test('defaults are seed 001 / Kubernetes defaults', () => {
  const { options: o, exitCode } = parse();
  assert.equal(exitCode, undefined);
  assert.ok(o);
  assert.equal(o.address, '0.0.0.0');
  assert.equal(o.port, 10252);
  assert.equal(o.kubeApiQps, 20);
  assert.equal(o.kubeApiBurst, 30);
  assert.equal(o.kubeApiContentType, 'application/vnd.kubernetes.protobuf');
  assert.deepEqual(o.controllers, ['*']);
  assert.equal(o.minResyncPeriod, 12 * 3600_000);
  assert.equal(o.profiling, true);
  assert.equal(o.leaderElect, true);
  assert.equal(o.leaderElectLeaseDuration, 15_000);
  assert.equal(o.leaderElectRenewDeadline, 10_000);
  assert.equal(o.leaderElectRetryPeriod, 2_000);
  assert.equal(o.leaderElectResourceLock, 'endpoints');
  assert.equal(o.leaderElectResourceName, 'kube-controller-manager');
  assert.equal(o.leaderElectResourceNamespace, 'kube-system');
  assert.equal(o.concurrentGcSyncs, 20);
  assert.equal(o.concurrentNamespaceSyncs, 10);
  assert.equal(o.concurrentServiceSyncs, 1);
  assert.equal(o.concurrentRcSyncs, 5);
  assert.equal(o.deploymentControllerSyncPeriod, 30_000);
  assert.equal(o.namespaceSyncPeriod, 300_000);
  assert.equal(o.attachDetachReconcileSyncPeriod, 60_000);
  assert.equal(o.terminatedPodGcThreshold, 12500);
  assert.equal(o.nodeEvictionRate, 0.1);
  assert.equal(o.clusterName, 'kubernetes');
  assert.equal(o.clusterSigningCertFile, '/etc/kubernetes/ca/ca.pem');
  assert.equal(o.experimentalClusterSigningDuration, 8760 * 3600_000);
  assert.equal(o.featureGates.AppArmor, true);
  assert.equal(o.featureGates.TaintBasedEvictions, false);
});

test('flags: durations, booleans, underscores, repeated slices', () => {
  const { options: o } = parse(
    '--leader-elect=false', '--profiling=false', '--concurrent_rc_syncs=7', '--min-resync-period=1h30m',
    '--controllers=*,-job', '--controllers', 'bootstrapsigner', '--kube-api-qps', '1000', '--address=127.0.0.1',
    '--leader-elect-resource-lock=leases', '--feature-gates=AppArmor=false', '--feature-gates', 'TaintBasedEvictions=true',
  );
  assert.ok(o);
  assert.equal(o.leaderElect, false);
  assert.equal(o.profiling, false);
  assert.equal(o.concurrentRcSyncs, 7);
  assert.equal(o.minResyncPeriod, 90 * 60_000);
  assert.deepEqual(o.controllers, ['*', '-job', 'bootstrapsigner']);
  assert.equal(o.kubeApiQps, 1000);
  assert.equal(o.address, '127.0.0.1');
  assert.equal(o.leaderElectResourceLock, 'leases');
  assert.equal(o.featureGates.AppArmor, false);
  assert.equal(o.featureGates.TaintBasedEvictions, true);
  assert.equal(parse('--leader-elect').options!.leaderElect, true);
});

test('AllAlpha turns on alpha gates that are not set explicitly', () => {
  const g = parse('--feature-gates=AllAlpha=true,Accelerators=false').options!.featureGates;
  assert.equal(g.Accelerators, false);
  assert.equal(g.PersistentLocalVolumes, true);
  assert.equal(g.ExperimentalHostUserNamespaceDefaulting, false); // beta
});

const bad: [string[], RegExp][] = [
  [['--port=x'], /--port.*invalid/],
  [['--port=70000'], /port number/],
  [['--bogus'], /unknown option '--bogus'/],
  [['--address=nope'], /invalid IP address/],
  [['--kube-api-qps=fast'], /ParseFloat/],
  [['--concurrent-deployment-syncs=0'], /at least 1/],
  [['--concurrent-deployment-syncs=3000000000'], /out of range/],
  [['--min-resync-period=5x'], /unknown unit "x"/],
  [['--min-resync-period=-5s'], /negative/],
  [['--leader-elect=maybe'], /ParseBool/],
  [['--leader-elect-renew-deadline=20s'], /renew-deadline \(20s\) must be less than or equal to --leader-elect-lease-duration \(15s\)/],
  [['--leader-elect-retry-period=9s'], /1.2/],
  [['--leader-elect-resource-lock=secrets'], /must be one of endpoints, configmaps, leases/],
  [['--attach-detach-reconcile-sync-period=1s'], /must be greater than 1 second/],
  [['--feature-gates=Foo=true'], /unrecognized feature gate: Foo/],
  [['--feature-gates=AppArmor=yes'], /invalid value of AppArmor=yes/],
  [['--feature-gates=AppArmor'], /missing bool value/],
  [['--controllers=*,nope'], /"nope" is not in the list of known controllers/],
  [['--cluster-cidr=10.0.0.0/33'], /invalid CIDR/],
  [['--kube-api-content-type=text/plain'], /must be one of/],
  [['--secure-port=10257'], /tls-cert-file/],
  [['positional'], /too many arguments|unknown command|excess/],
];
for (const [argv, re] of bad) {
  test(`bad flags exit 2 with one line: ${argv.join(' ')}`, () => {
    const r = parse(...argv);
    assert.equal(r.exitCode, 2);
    assert.match(r.err, re);
    assert.match(r.err, /^kubelite controller-manager: /);
    assert.equal(r.err.trimEnd().split('\n').length, 1, r.err);
  });
}

test('a renew deadline equal to the lease duration is fine; leader-election checks are off with --leader-elect=false', () => {
  assert.ok(parse('--leader-elect-renew-deadline=15s').options);
  assert.ok(parse('--leader-elect=false', '--leader-elect-renew-deadline=20s').options);
});

test('--help lists every option, --version prints and exits 0', () => {
  const h = parse('--help');
  assert.equal(h.exitCode, 0);
  for (const s of OPTION_SPECS) assert.ok(h.out.includes(`--${s.flag} `), s.flag);
  assert.match(h.out, /default: "12h0m0s"|default: 12h0m0s/);
  const v = parse('--version');
  assert.equal(v.exitCode, 0);
  assert.match(v.out, /^Kubernetes v/);
});

test('--controllers semantics', () => {
  const all = resolveControllers(['*']);
  assert.ok(all.includes('deployment') && all.includes('job'));
  assert.ok(!all.includes('bootstrapsigner') && !all.includes('tokencleaner'));
  assert.deepEqual(resolveControllers(['job', 'deployment']), ['deployment', 'job']);
  const some = resolveControllers(['-job', '*', 'tokencleaner']);
  assert.ok(!some.includes('job') && some.includes('tokencleaner') && some.includes('cronjob'));
  assert.deepEqual(resolveControllers(['deployment-controller']), ['deployment']);
  // the first mention decides (kube-controller-manager's IsControllerEnabled)
  assert.deepEqual(resolveControllers(['job', '-job']), ['job']);
  assert.ok(!resolveControllers(['-job', 'job', '*']).includes('job'));
  assert.deepEqual(resolveControllers([]), []);
  assert.throws(() => resolveControllers(['nope']), /not in the list/);
  for (const name of ['attachdetach', 'bootstrapsigner', 'cronjob', 'csrapproving', 'csrsigning', 'daemonset', 'deployment', 'disruption', 'endpoint', 'garbagecollector', 'horizontalpodautoscaling', 'job', 'namespace', 'node', 'persistentvolume-binder', 'podgc', 'replicaset', 'replicationcontroller', 'resourcequota', 'route', 'service', 'serviceaccount', 'serviceaccount-token', 'statefulset', 'tokencleaner', 'ttl']) {
    assert.ok(CONTROLLERS[name] ?? canonicalControllerName(name), `seed controller ${name}`);
  }
  // seed 001's `node` is the node lifecycle controller's older name
  assert.deepEqual(resolveControllers(['node']), ['nodelifecycle']);
  const defaults = parse().options!;
  for (const [name, e] of Object.entries(CONTROLLERS)) {
    if (e.workersOption) assert.equal(typeof defaults[e.workersOption], 'number', `${name}: ${e.workersOption}`);
  }
});

test('/configz form: flag names, Go durations', () => {
  const c = optionsForConfigz(parse().options!);
  assert.equal(c['min-resync-period'], '12h0m0s');
  assert.equal(c['namespace-sync-period'], '5m0s');
  assert.equal(c['port'], 10252);
});
