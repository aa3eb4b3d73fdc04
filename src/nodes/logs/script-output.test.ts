// What a simulated container's command prints, and when.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container } from '../../api/types.js';
import { commandOutput } from './script-output.js';

function take(c: Container, n = 20): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (const l of commandOutput(c, new Map([['HOSTNAME', 'pod-a']]))) {
    out.push([l.offsetMs, l.text]);
    if (out.length >= n) break;
  }
  return out;
}

test('echo forms, their timing after sleeps, and what is not output', () => {
  const sh = (script: string, env: Container['env'] = []): Container => ({ name: 'c', command: ['sh', '-c'], args: [script], env });
  const cases: Array<[string, Container, Array<[number, string]>]> = [
    ['exec form', { name: 'c', command: ['echo', 'hello', '$HOME'] }, [[0, 'hello $HOME']]],
    ['busybox echo', { name: 'c', command: ['busybox', 'echo', 'hi'] }, [[0, 'hi']]],
    ['echo, sleep, echo', sh('echo start; sleep 2; echo "done now"'), [[0, 'start'], [2000, 'done now']]],
    ['variables expand from env, not in single quotes', sh('echo $GREETING ${HOSTNAME} \'$GREETING\'', [{ name: 'GREETING', value: 'hi' }]), [[0, 'hi pod-a $GREETING']]],
    ['an unset variable is empty', sh('echo "[$NOPE]"'), [[0, '[]']]],
    ['-n and -e', sh('echo -e "a\\nb"; echo -n c'), [[0, 'a'], [0, 'b'], [0, 'c']]],
    ['redirected to a file: not output; to stderr: output', sh('echo x > /tmp/f; echo y >&2; echo z 1>&2'), [[0, 'y'], [0, 'z']]],
    ['exit stops the output', sh('echo a; exit 3; echo b'), [[0, 'a']]],
    ['&& chains; || runs its right side only after a failure', sh('sleep 1 && echo a || echo b; false || echo c'), [[1000, 'a'], [1000, 'c']]],
    ['nothing for other commands', { name: 'c', command: ['nginx', '-g', 'daemon off;'] }, []],
    ['an if stops what can be followed', sh('echo a; if true; then echo b; fi'), [[0, 'a']]],
    ['for over words, then what follows', sh('for n in 1 2 3; do echo "n=$n"; sleep 1; done; echo end'), [[0, 'n=1'], [1000, 'n=2'], [2000, 'n=3'], [3000, 'end']]],
    ['a loop without sleep runs once', sh('while true; do echo spin; done'), [[0, 'spin']]],
  ];
  for (const [name, c, want] of cases) assert.deepEqual(take(c), want, name);
});

test('an endless loop prints once per turn, without end', () => {
  const c: Container = { name: 'c', command: ['/bin/sh', '-c', 'echo begin; while true; do echo "tick $HOSTNAME"; sleep 0.5; done; echo never'] };
  assert.deepEqual(take(c, 4), [[0, 'begin'], [0, 'tick pod-a'], [500, 'tick pod-a'], [1000, 'tick pod-a']]);
  const multiline: Container = { name: 'c', command: ['bash', '-c', 'while :\ndo\n  echo a\n  sleep 1\ndone'] };
  assert.deepEqual(take(multiline, 3), [[0, 'a'], [1000, 'a'], [2000, 'a']]);
});

test('a reader far behind an endless loop gets its latest turns without every line since the start', () => {
  const c: Container = { name: 'c', command: ['sh', '-c', 'echo begin; while true; do echo tick; sleep 1; done'] };
  const horizon = { untilMs: 10 * 86_400_000, keepBytes: 50 }; // ten days on; 50 bytes kept: 10 ticks
  const lines: Array<[number, string]> = [];
  for (const l of commandOutput(c, new Map(), horizon)) {
    if (l.offsetMs > horizon.untilMs) break;
    lines.push([l.offsetMs, l.text]);
  }
  assert.deepEqual(lines[0], [0, 'begin']);
  assert.ok(lines.length <= 13, `${lines.length} lines produced`);
  assert.deepEqual(lines.at(-1), [horizon.untilMs, 'tick']); // on the second: a tick every 1 s from 0
  assert.ok(lines.slice(1).every(([t], i, all) => i === 0 || t - all[i - 1]![0] === 1000));
});
