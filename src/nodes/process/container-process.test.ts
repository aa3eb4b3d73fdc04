// One container's runs as real processes: exit codes, restarts as the policy says with back-off,
// readiness from a probe, SIGTERM then SIGKILL at the end of the grace period.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container } from '../../api/types.js';
import type { ContainerState } from '../simulate.js';
import { ContainerProcess } from './container-process.js';

function harness(container: Container, args: string[]) {
  let changes = 0;
  const lines: string[] = [];
  const events: string[] = [];
  const cp = new ContainerProcess(
    container,
    { command: { file: '/bin/sh', args, node: false }, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: '/', podIP: '127.0.0.1' },
    { now: () => Date.now(), changed: () => void changes++, output: (_r, _s, text) => void lines.push(text), event: (_t, reason, message) => void events.push(`${reason}: ${message}`) },
    1,
  );
  return { cp, lines, events, changes: () => changes };
}

async function until(cp: ContainerProcess, policy: 'Always' | 'OnFailure' | 'Never', ok: (s: ContainerState) => boolean, kill?: { at: number; graceMs: number; hard: boolean }): Promise<ContainerState> {
  for (let i = 0; i < 500; i++) {
    const s = cp.state(policy, kill, Date.now(), 'c');
    if (ok(s)) return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`state never matched: ${JSON.stringify(cp.state(policy, kill, Date.now(), 'c'))}`);
}

test('a process that exits: terminated with its code under Never; restarted at once, then backing off, under OnFailure', async () => {
  const never = harness({ name: 'c' }, ['-c', 'echo out; exit 3']);
  const t = await until(never.cp, 'Never', (s) => s.kind === 'terminated');
  assert.deepEqual([t.terminated?.exitCode, t.terminated?.reason, t.restartCount], [3, 'Error', 0]);
  assert.deepEqual(never.lines, ['out']);

  const onFailure = harness({ name: 'c' }, ['-c', 'exit 1']);
  const backingOff = await until(onFailure.cp, 'OnFailure', (s) => s.kind === 'waiting' && s.waitingReason === 'CrashLoopBackOff');
  // the first restart was at once; the second waits 10 s
  assert.equal(backingOff.restartCount, 1);
  assert.equal(backingOff.backoffMs, 10_000);
  assert.ok(backingOff.next! - backingOff.last!.finishedAt === 10_000);
  assert.deepEqual([backingOff.last?.exitCode, backingOff.last?.reason], [1, 'Error']);
});

test('readiness follows the probe; a pod kill sends SIGTERM, then SIGKILL after the grace period', async () => {
  const ready = harness({ name: 'c', readinessProbe: { exec: { command: ['test', '-e', '/'] }, periodSeconds: 1 } }, ['-c', 'sleep 30']);
  assert.equal((await until(ready.cp, 'Always', (s) => s.kind === 'running')).ready, false);
  await until(ready.cp, 'Always', (s) => s.ready);
  // the shell ignores nothing here: SIGTERM ends sleep's process group at once (143)
  const at = Date.now();
  const stopped = await until(ready.cp, 'Always', (s) => s.kind === 'terminated', { at, graceMs: 5000, hard: false });
  assert.deepEqual([stopped.terminated?.exitCode, stopped.killed], [143, true]);

  const stubborn = harness({ name: 'c' }, ['-c', "trap '' TERM; echo trapped; while :; do sleep 0.05; done"]);
  await until(stubborn.cp, 'Always', (s) => s.kind === 'running' && stubborn.lines.includes('trapped'));
  const killed = await until(stubborn.cp, 'Always', (s) => s.kind === 'terminated', { at: Date.now(), graceMs: 300, hard: false });
  assert.deepEqual([killed.terminated?.exitCode, killed.killed], [137, true]);
});
