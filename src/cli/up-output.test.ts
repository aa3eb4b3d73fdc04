import { test } from 'node:test';
import assert from 'node:assert/strict';
import { componentLogFilter, stageWriter } from './up-output.js';

const lines = [
  '[apiserver] ready: server=https://127.0.0.1:1',
  '[controller-manager] {"level":"info","msg":"started controller"}',
  '[controller-manager] {"level":"error","msg":"cannot sync"}',
  '[scheduler] {"msg":"about to fail"}',
  '[up] scheduler exited (1); restarting in 1s',
];

test('errors (the default): the supervisor\'s lines and component errors; a component that exits brings its last lines', () => {
  const shown: string[] = [];
  const filter = componentLogFilter('errors', (l) => shown.push(l));
  for (const l of lines) filter.line(l);
  assert.deepEqual(shown, ['[controller-manager] {"level":"error","msg":"cannot sync"}', '[scheduler] {"msg":"about to fail"}', '[up] scheduler exited (1); restarting in 1s']);
});

test('all shows every line; none and a stop under way show nothing', () => {
  const all: string[] = [];
  componentLogFilter('all', (l) => all.push(l)).line(lines[0]!);
  assert.deepEqual(all, [lines[0]]);
  const none: string[] = [];
  for (const l of lines) componentLogFilter('none', (x) => none.push(x)).line(l);
  const stopping: string[] = [];
  const filter = componentLogFilter('all', (x) => stopping.push(x));
  filter.stopping();
  for (const l of lines) filter.line(l);
  assert.deepEqual([none, stopping], [[], []]);
});

test('stageWriter: stages are lines of their own, or on a terminal one progress line that other lines end first', () => {
  const plain: string[] = [];
  const p = stageWriter({ write: (t) => plain.push(t) });
  p.stage('[up] a');
  p.line('error');
  assert.equal(plain.join(''), '[up] a\nerror\n');
  const tty: string[] = [];
  const t = stageWriter({ write: (x) => tty.push(x), isTTY: true });
  t.stage('[up] a');
  t.stage('[up] b');
  t.line('hint');
  t.line('more');
  assert.equal(tty.join(''), '\r\x1b[K[up] a\r\x1b[K[up] b\nhint\nmore\n');
});
