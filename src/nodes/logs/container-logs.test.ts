// Container logs through the agent (fake clientset and clock): what each run's log holds, which
// run a request reads (current, previous, waiting), and the reading options — tail, since,
// timestamps, limitBytes and follow.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { uidOf } from '../../api/meta/object.js';
import { decodePodLogOptions } from '../../machinery/podlogs/options.js';
import { PODS, setup } from '../agent.testutil.js';
import type { NodeAgent } from '../agent.js';
import type { FakeClock } from '../../client/fake/index.js';
import { LogRing } from './ring.js';
import { logContainerID, LogStatusError, readLog, type LogSink } from './read.js';

class Sink implements LogSink {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  once(): this {
    return this;
  }
  removeListener(): this {
    return this;
  }
}

/** The log of pod `name`'s container `c` as a request with `query` reads it. */
async function read(agent: NodeAgent, clock: FakeClock, name: string, query: string, signal = new AbortController().signal, sink = new Sink()): Promise<string> {
  const pod = agent.pod('default', name)!;
  const opts = decodePodLogOptions(new URLSearchParams(query));
  const id = logContainerID(name, opts.container ?? 'c', agent.logs.statuses(uidOf(pod))!, opts.previous);
  await readLog(agent.logs.run(uidOf(pod), opts.container ?? 'c', id), opts, sink, clock, signal);
  return sink.text;
}

test('a run logs its start, the annotation lines, its echo output as time passes, its exit and termination message', async () => {
  const { agent, clock, tick, createPod } = await setup();
  const t0 = clock.now();
  await createPod('job', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo one; sleep 2; echo two; exit 4'] }] }, { 'kubelite.dev/log': 'line a\nline b', 'kubelite.dev/termination-message': 'bye' });
  assert.equal(await read(agent, clock, 'job', ''), '[kubelite] started container c (image docker.io/library/busybox:latest)\nline a\nline b\none\n');
  await tick(2500);
  const all = await read(agent, clock, 'job', 'timestamps=true');
  assert.equal(all.split('\n').at(-4), `${new Date(t0 + 2000).toISOString().replace('.000', '')} two`);
  assert.match(all, /Z \[kubelite\] container c exited with code 4 \(Error\)\n.*Z \[kubelite\] termination message: bye\n$/);
  await agent.stop();
});

test('tail, since and limitBytes select as the kubelet does', async () => {
  const { agent, clock, tick, createPod } = await setup();
  await createPod('ticker', { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] }] });
  await tick(4000);
  const lines = (await read(agent, clock, 'ticker', '')).trimEnd().split('\n');
  assert.equal(lines.length, 6); // started + 5 ticks (0..4 s)
  const cases: Array<[string, string]> = [
    ['tailLines=2', 'tick\ntick\n'],
    ['tailLines=0', ''],
    ['sinceSeconds=2', 'tick\ntick\ntick\n'], // at 2, 3 and 4 s
    ['tailLines=1&sinceSeconds=1', 'tick\n'],
    ['limitBytes=12', '[kubelite] s'],
  ];
  for (const [q, want] of cases) assert.equal(await read(agent, clock, 'ticker', q), want, q);
  await agent.stop();
});

test('previous reads the last terminated run; a waiting container has no log; follow ends with the run', async () => {
  const { agent, clock, tick, createPod } = await setup();
  await createPod('crash', { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo run; sleep 1; exit 2'] }] });
  assert.throws(() => logContainerID('crash', 'c', agent.logs.statuses(uidOf(agent.pod('default', 'crash')!))!, true), (e: unknown) => e instanceof LogStatusError && e.message === 'previous terminated container "c" in pod "crash" not found');
  // follow: the lines as they come, until the run exits
  const following = read(agent, clock, 'crash', 'follow=true');
  await tick(1500);
  assert.match(await following, /^\[kubelite\] started container c .*\nrun\n\[kubelite\] container c exited with code 2 \(Error\)\n$/);
  // restarted at once (the first restart), then it crashes again into CrashLoopBackOff
  await tick(1500);
  assert.match(await read(agent, clock, 'crash', 'previous=true'), /exited with code 2/);
  const waiting = [{ name: 'c', state: { waiting: { reason: 'ContainerCreating' } }, lastState: {} }];
  assert.throws(() => logContainerID('p', 'c', waiting, false), /container "c" in pod "p" is waiting to start: ContainerCreating/);
  assert.throws(() => logContainerID('p', 'x', waiting, false), /container "x" in pod "p" is not available/);
  await agent.stop();
});

test('a follower that goes away stops following; one of a pod that is removed ends', async () => {
  const { agent, clock, clientset, tick, createPod } = await setup();
  await createPod('ticker', { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] }] });
  const abort = new AbortController();
  const sink = new Sink();
  const following = read(agent, clock, 'ticker', 'follow=true&tailLines=0', abort.signal, sink);
  await tick(2100);
  assert.equal(sink.text, 'tick\ntick\n');
  abort.abort();
  await following;
  await tick(2000);
  assert.equal(sink.text, 'tick\ntick\n');
  // a follower of a pod that is removed ends with it
  const second = new Sink();
  const stillFollowing = read(agent, clock, 'ticker', 'follow=true&tailLines=1', new AbortController().signal, second);
  await clientset.resource(PODS).delete('default', 'ticker', { gracePeriodSeconds: 0 });
  await tick(200);
  await stillFollowing;
  assert.equal(second.text, 'tick\n');
  await agent.stop();
});

test('kubelite.dev/log-file: the file at the start, then what is appended while the container runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-log-file-'));
  const file = join(dir, 'app.log');
  writeFileSync(file, 'old 1\nold 2\n');
  const { agent, clock, createPod } = await setup();
  try {
    await createPod('tail', {}, { 'kubelite.dev/c.log-file': file });
    await createPod('missing', {}, { 'kubelite.dev/log-file': join(dir, 'nope.log') });
    const sink = new Sink();
    const stop = new AbortController();
    const following = read(agent, clock, 'tail', 'follow=true', stop.signal, sink);
    appendFileSync(file, 'new 3\npartial');
    await until(() => sink.text.includes('new 3\n'));
    appendFileSync(file, ' line\n');
    await until(() => sink.text.includes('partial line\n'));
    assert.match(sink.text, /^\[kubelite\] started container c .*\nold 1\nold 2\nnew 3\npartial line\n$/);
    assert.match(await read(agent, clock, 'missing', ''), /\[kubelite\] log file .*nope\.log: ENOENT\n$/);
    stop.abort();
    await following;
  } finally {
    await agent.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Waits (real time) for a file change to be noticed: inotify events come asynchronously. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('the ring keeps the newest lines within its byte budget', () => {
  const ring = new LogRing(20);
  for (let i = 0; i < 10; i++) ring.append({ at: i, text: `line${i}` });
  assert.deepEqual(ring.linesFrom(0).map((l) => l.text), ['line7', 'line8', 'line9']);
  assert.equal(ring.bytes, 18);
  assert.deepEqual([ring.start, ring.end], [7, 10]);
  assert.deepEqual(ring.linesFrom(9).map((l) => l.text), ['line9']);
});
