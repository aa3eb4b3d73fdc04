import assert from 'node:assert/strict';
import { test } from 'node:test';
import { containerBehaviour, DEFAULT_BEHAVIOUR } from './behaviour.js';
import { parseShellForm } from './shell-form.js';
import { containerTimeline, imageID, normalizeImage, simulatePod } from './simulate.js';
import type { Pod, PodSpec } from '../api/types.js';

const T0 = Date.UTC(2026, 0, 1);

function pod(spec: PodSpec, annotations: Record<string, string> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'uid-1', annotations },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  };
}

function at(p: Pod, secondsAfter: number, extra: Partial<Parameters<typeof simulatePod>[0]> = {}) {
  return simulatePod({ pod: p, acceptedAt: T0, startDelayMs: 0, now: T0 + secondsAfter * 1000, hostIP: '10.0.0.2', podIP: '10.64.0.2', ...extra });
}

const cs = (r: ReturnType<typeof simulatePod>, i = 0) => r.status.containerStatuses![i]!;
const cond = (r: ReturnType<typeof simulatePod>, type: string) => r.status.conditions!.find((c) => c.type === type)?.status;

test('shell forms: sleep, exit, sh -c scripts, endless loops, unrecognised commands', () => {
  assert.deepEqual(parseShellForm(['sleep', '5'], undefined), { runSeconds: 5 });
  assert.deepEqual(parseShellForm(['sleep'], ['2m']), { runSeconds: 120 });
  assert.deepEqual(parseShellForm(['/bin/sleep', 'infinity'], undefined), { forever: true });
  assert.deepEqual(parseShellForm(['sh', '-c', 'exit 3'], undefined), { runSeconds: 0, exitCode: 3 });
  // a fallback after || does not run: the command before it succeeds in the simulation
  assert.deepEqual(parseShellForm(['/bin/sh'], ['-c', 'test -e /scrub && sleep 2 && test -z "$(ls -A /scrub)" || exit 1']), { runSeconds: 2 });
  assert.deepEqual(parseShellForm(['sh', '-c', 'sleep 1 || false'], undefined), { runSeconds: 1 });
  assert.deepEqual(parseShellForm(['sh', '-c', 'sleep 1 || true; exit 4'], undefined), { runSeconds: 1, exitCode: 4 });
  assert.deepEqual(parseShellForm(['/bin/sh', '-c'], ['echo hi; sleep 2; exit 1']), { runSeconds: 2, exitCode: 1 });
  assert.deepEqual(parseShellForm(['bash', '-ec', "sleep 5 && echo done"], undefined), { runSeconds: 5 });
  assert.deepEqual(parseShellForm(['sh', '-c', "sleep 1; false"], undefined), { runSeconds: 1, exitCode: 1 });
  assert.deepEqual(parseShellForm(['sh', '-c', 'while true; do sleep 1; done'], undefined), { forever: true });
  assert.deepEqual(parseShellForm(['false'], undefined), { runSeconds: 0, exitCode: 1 });
  assert.equal(parseShellForm(['nginx', '-g', 'daemon off;'], undefined), undefined);
  assert.equal(parseShellForm(['sh', '-c', 'echo hello'], undefined), undefined);
  assert.equal(parseShellForm(undefined, undefined), undefined);
});

test('behaviour: defaults by restart policy, annotations (pod and per container) win over the shell form', () => {
  const always = containerBehaviour(pod({}), { name: 'c' });
  assert.equal(always.runMs, Infinity);
  assert.equal(always.readyAfterMs, 0);
  const job = containerBehaviour(pod({ restartPolicy: 'Never' }), { name: 'c' });
  assert.equal(job.runMs, 1000);
  assert.equal(job.exitCode, 0);
  const shell = containerBehaviour(pod({ restartPolicy: 'Never' }), { name: 'c', command: ['sh', '-c', 'sleep 3; exit 4'] });
  assert.deepEqual([shell.runMs, shell.exitCode], [3000, 4]);
  const p = pod({ restartPolicy: 'Never' }, { 'kubelite.dev/run-seconds': '7', 'kubelite.dev/exit-code': '2', 'kubelite.dev/c.exit-code': '5', 'kubelite.dev/ready-after-seconds': '4' });
  const b = containerBehaviour(p, { name: 'c', command: ['sleep', '3'] });
  assert.deepEqual([b.runMs, b.exitCode, b.readyAfterMs], [7000, 5, 4000]);
  const other = containerBehaviour(p, { name: 'd' });
  assert.equal(other.exitCode, 2);
  const crash = containerBehaviour(pod({}, { 'kubelite.dev/crash-after-seconds': '2' }), { name: 'c' });
  assert.deepEqual([crash.runMs, crash.exitCode], [2000, 1]);
  const probe = containerBehaviour(pod({}), { name: 'c', readinessProbe: { initialDelaySeconds: 6 } });
  assert.equal(probe.readyAfterMs, 6000);
  assert.equal(containerBehaviour(pod({}, { 'kubelite.dev/never-ready': 'true' }), { name: 'c' }).neverReady, true);
  assert.equal(containerBehaviour(pod({ restartPolicy: 'Never' }), { name: 'c' }, { ...DEFAULT_BEHAVIOUR, jobRunSeconds: 9 }).runMs, 9000);
});

test('images: normalized references and fake digests', () => {
  assert.equal(normalizeImage('nginx').ref, 'docker.io/library/nginx:latest');
  assert.equal(normalizeImage('nginx:1.25').ref, 'docker.io/library/nginx:1.25');
  assert.equal(normalizeImage('bitnami/redis:7').ref, 'docker.io/bitnami/redis:7');
  assert.equal(normalizeImage('registry.k8s.io/pause:3.9').ref, 'registry.k8s.io/pause:3.9');
  assert.match(imageID('busybox'), /^docker\.io\/library\/busybox@sha256:[0-9a-f]{64}$/);
  assert.equal(imageID('busybox'), imageID('busybox:latest'));
});

test('restartPolicy Always: Pending (ContainerCreating) → Running and Ready, runs forever', () => {
  const p = pod({});
  const pending = at(p, 0, { startDelayMs: 500 });
  assert.equal(pending.phase, 'Pending');
  assert.deepEqual(cs(pending).state!.waiting, { reason: 'ContainerCreating' });
  assert.equal(cond(pending, 'PodReadyToStartContainers'), 'False');
  assert.equal(pending.next, T0 + 500);
  const running = at(p, 1, { startDelayMs: 500 });
  assert.equal(running.phase, 'Running');
  const c = cs(running);
  assert.equal(c.ready, true);
  assert.equal(c.started, true);
  assert.equal(c.restartCount, 0);
  assert.equal(c.image, 'docker.io/library/nginx:latest');
  assert.match(String(c.containerID), /^kubelite:\/\/[0-9a-f]{64}$/);
  assert.ok(c.state!.running);
  for (const t of ['PodScheduled', 'PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready']) {
    if (t === 'PodScheduled') continue;
    assert.equal(cond(running, t), 'True', t);
  }
  assert.equal(running.status.podIP, '10.64.0.2');
  assert.equal(running.status.hostIP, '10.0.0.2');
  assert.equal(running.status.startTime, '2026-01-01T00:00:00Z');
  assert.equal(running.next, undefined);
  assert.equal(running.stopped, false);
});

test('readiness delay from the probe, and never-ready', () => {
  const p = pod({ containers: [{ name: 'c', image: 'nginx', readinessProbe: { initialDelaySeconds: 5 } }] });
  const r1 = at(p, 2);
  assert.equal(cs(r1).ready, false);
  assert.equal(cond(r1, 'Ready'), 'False');
  assert.equal(r1.next, T0 + 5000);
  const r2 = at(p, 5);
  assert.equal(cs(r2).ready, true);
  assert.equal(cond(r2, 'Ready'), 'True');
  const never = at(pod({}, { 'kubelite.dev/never-ready': 'true' }), 100);
  assert.equal(never.phase, 'Running');
  assert.equal(cond(never, 'Ready'), 'False');
  assert.equal(never.status.conditions!.find((c) => c.type === 'Ready')!.reason, 'ContainersNotReady');
});

test('restartPolicy Never: Succeeded or Failed after the run, with the terminated state', () => {
  const ok = at(pod({ restartPolicy: 'Never' }), 1);
  assert.equal(ok.phase, 'Succeeded');
  const t = cs(ok).state!.terminated!;
  assert.equal(t.exitCode, 0);
  assert.equal(t.reason, 'Completed');
  assert.equal(cond(ok, 'Ready'), 'False');
  assert.equal(ok.stopped, true);
  assert.equal(at(pod({ restartPolicy: 'Never' }), 0.5).phase, 'Running');
  const bad = at(pod({ restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'exit 3'] }] }, { 'kubelite.dev/termination-message': 'boom' }), 0);
  assert.equal(bad.phase, 'Failed');
  const bt = cs(bad).state!.terminated!;
  assert.deepEqual([bt.exitCode, bt.reason, bt.message], [3, 'Error', 'boom']);
});

test('restartPolicy OnFailure: a failing container restarts with back-off; a succeeding one completes', () => {
  const p = pod({ restartPolicy: 'OnFailure' }, { 'kubelite.dev/run-seconds': '1', 'kubelite.dev/exit-code': '1' });
  // run 0..1, restart at once, run 1..2, back-off 10 s (2..12), run 12..13, back-off 20 s ...
  const r = at(p, 1.5);
  assert.equal(cs(r).restartCount, 1);
  assert.ok(cs(r).state!.running);
  assert.equal(cs(r).lastState!.terminated!.exitCode, 1);
  const w = at(p, 5);
  assert.equal(w.phase, 'Running');
  assert.equal(cs(w).state!.waiting!.reason, 'CrashLoopBackOff');
  assert.match(String(cs(w).state!.waiting!.message), /^back-off 10s restarting failed container=c pod=p_default\(uid-1\)$/);
  assert.equal(w.next, T0 + 12_000);
  assert.equal(cs(at(p, 12.5)).restartCount, 2);
  assert.equal(at(p, 20).next, T0 + 33_000);
  const done = at(pod({ restartPolicy: 'OnFailure' }), 2);
  assert.equal(done.phase, 'Succeeded');
});

test('crash loop back-off doubles to 5 minutes', () => {
  const b = { runMs: 0, exitCode: 1, readyAfterMs: 0, neverReady: false, stopMs: Infinity };
  const restarts: number[] = [];
  let t = 0;
  let prev = -1;
  while (t < 3_000_000) {
    const st = containerTimeline(b, 'Always', 0, t, undefined, 'c');
    if (st.restartCount !== prev) restarts.push(t);
    prev = st.restartCount;
    if (st.next === undefined) break;
    t = st.next;
  }
  const gaps = restarts.slice(1).map((x, i) => x - restarts[i]!);
  assert.deepEqual(gaps.slice(0, 8), [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
});

test('restartPolicy Always: crash-after-seconds crash-loops with restartCount', () => {
  const p = pod({}, { 'kubelite.dev/crash-after-seconds': '2' });
  const r = at(p, 3);
  assert.equal(r.phase, 'Running');
  assert.equal(cs(r).restartCount, 1);
  const w = at(p, 5);
  assert.equal(cs(w).state!.waiting!.reason, 'CrashLoopBackOff');
  assert.equal(cond(w, 'Ready'), 'False');
});

test('init containers run in order first; Initialized False meanwhile; a failed init container fails a Never pod', () => {
  const p = pod({
    initContainers: [
      { name: 'i1', image: 'busybox', command: ['sleep', '2'] },
      { name: 'i2', image: 'busybox', command: ['sleep', '3'] },
    ],
  });
  const r1 = at(p, 1);
  assert.equal(r1.phase, 'Pending');
  assert.equal(cond(r1, 'Initialized'), 'False');
  const inits = r1.status.initContainerStatuses!;
  assert.ok(inits[0]!.state!.running);
  assert.equal(inits[1]!.state!.waiting!.reason, 'PodInitializing');
  assert.equal(cs(r1).state!.waiting!.reason, 'PodInitializing');
  assert.equal(r1.next, T0 + 2000);
  const r2 = at(p, 3);
  assert.equal(r2.status.initContainerStatuses![0]!.state!.terminated!.reason, 'Completed');
  assert.ok(r2.status.initContainerStatuses![1]!.state!.running);
  const r3 = at(p, 5);
  assert.equal(r3.phase, 'Running');
  assert.equal(cond(r3, 'Initialized'), 'True');
  assert.equal(cond(r3, 'Ready'), 'True');
  assert.equal(String(cs(r3).state!.running!.startedAt), '2026-01-01T00:00:05Z');
  const failing = pod({ restartPolicy: 'Never', initContainers: [{ name: 'i1', image: 'busybox', command: ['sh', '-c', 'exit 2'] }] });
  const f = at(failing, 1);
  assert.equal(f.phase, 'Failed');
  assert.equal(cs(f).state!.waiting!.reason, 'PodInitializing');
});

test('activeDeadlineSeconds: Failed with reason DeadlineExceeded, containers killed', () => {
  const p = pod({ restartPolicy: 'Never', activeDeadlineSeconds: 5 }, { 'kubelite.dev/run-seconds': '60' });
  const before = at(p, 4);
  assert.equal(before.phase, 'Running');
  assert.equal(before.next, T0 + 5000);
  const after = at(p, 5);
  assert.equal(after.phase, 'Failed');
  assert.equal(after.status.reason, 'DeadlineExceeded');
  assert.equal(cs(after).state!.terminated!.exitCode, 137);
  // a pod that finishes before its deadline keeps its own phase
  assert.equal(at(pod({ restartPolicy: 'Never', activeDeadlineSeconds: 5 }), 10).phase, 'Succeeded');
});

test('graceful deletion: stops after min(grace period, run left); exit 137 when killed', () => {
  const forever = pod({ containers: [{ name: 'c', image: 'busybox', command: ['sleep', 'infinity'] }] });
  const del = { at: T0 + 10_000, graceMs: 30_000 };
  const r1 = at(forever, 20, { deletion: del });
  assert.equal(r1.phase, 'Running');
  assert.equal(r1.stopped, false);
  assert.equal(r1.next, T0 + 40_000);
  const r2 = at(forever, 40, { deletion: del });
  assert.equal(r2.stopped, true);
  assert.equal(r2.phase, 'Failed');
  assert.deepEqual([cs(r2).state!.terminated!.exitCode, cs(r2).state!.terminated!.reason], [137, 'Error']);
  // a job finishing its run within the grace period ends on its own terms
  const job = pod({ restartPolicy: 'Never' }, { 'kubelite.dev/run-seconds': '15' });
  const j = at(job, 15, { deletion: del });
  assert.equal(j.stopped, true);
  assert.equal(j.phase, 'Succeeded');
  // a server (not a shell form) exits on SIGTERM at once, with 0
  const server = at(pod({}), 10, { deletion: del });
  assert.equal(server.stopped, true);
  assert.equal(server.phase, 'Succeeded');
  assert.deepEqual([cs(server).state!.terminated!.exitCode, cs(server).state!.terminated!.reason], [0, 'Completed']);
  // stop-seconds: handles SIGTERM in 2 s, exit 0
  const quick = pod({ containers: [{ name: 'c', image: 'busybox', command: ['sleep', 'infinity'] }] }, { 'kubelite.dev/stop-seconds': '2' });
  const q = at(quick, 12, { deletion: del });
  assert.equal(q.stopped, true);
  assert.equal(cs(q).state!.terminated!.exitCode, 0);
  assert.equal(q.phase, 'Succeeded');
  // grace 0: at once
  assert.equal(at(forever, 10, { deletion: { at: T0 + 10_000, graceMs: 0 } }).stopped, true);
});

test('condition transition times hold while their status holds', () => {
  const p = pod({ containers: [{ name: 'c', image: 'nginx', readinessProbe: { initialDelaySeconds: 5 } }] });
  const r1 = at(p, 1);
  const r2 = at(p, 6, { previousConditions: r1.status.conditions! });
  const get = (r: ReturnType<typeof simulatePod>, t: string) => r.status.conditions!.find((c) => c.type === t)!.lastTransitionTime;
  assert.equal(get(r2, 'Initialized'), get(r1, 'Initialized'));
  assert.equal(get(r2, 'Ready'), '2026-01-01T00:00:06Z');
});

// The init container of bitnami's nginx chart (bitnami/charts, nginx, rendered by helm template,
// nginx 1.27.2-debian-12-r1): a bash script the simulation does not recognise, in a Deployment's
// pod (restartPolicy Always). It must complete like any init container, not run forever.
test('an unrecognised init container completes even when the pod restarts Always (bitnami nginx)', () => {
  const script = [
    '#!/bin/bash',
    '. /opt/bitnami/scripts/libfs.sh',
    '# We copy the logs folder because it has symlinks to stdout and stderr',
    'if ! is_dir_empty /opt/bitnami/nginx/logs; then',
    '  cp -r /opt/bitnami/nginx/logs /emptydir/app-logs-dir',
    'fi',
    '',
  ].join('\n');
  const p = pod({
    restartPolicy: 'Always',
    initContainers: [{ name: 'preserve-logs-symlinks', image: 'docker.io/bitnami/nginx:1.27.2-debian-12-r1', command: ['/bin/bash'], args: ['-ec', script] }],
    containers: [{ name: 'nginx', image: 'docker.io/bitnami/nginx:1.27.2-debian-12-r1' }],
  });
  const r = at(p, 10);
  assert.equal(r.phase, 'Running');
  assert.equal(r.status.initContainerStatuses?.[0]?.state?.terminated?.reason, 'Completed');
  assert.ok(r.status.containerStatuses?.[0]?.state?.running);
  // a copy command alone, too
  const cp = pod({ restartPolicy: 'Always', initContainers: [{ name: 'copy', image: 'busybox', command: ['cp', '/a', '/b'] }], containers: [{ name: 'c', image: 'nginx' }] });
  assert.equal(at(cp, 10).phase, 'Running');
});
