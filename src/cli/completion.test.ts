import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { bashCompletion, flagsOfHelp } from './completion.js';

test('flagsOfHelp: the long flags of the option lines, not flags mentioned in descriptions', () => {
  const help = 'Usage: up [options]\n\nOptions:\n  --data-dir <dir>   where (see --port)\n  -q, --quiet        less\n  -h, --help         display help\n';
  assert.deepEqual(flagsOfHelp(help), ['--data-dir', '--quiet', '--help']);
});

/** COMPREPLY of the generated function for the words typed so far (the last one being completed). */
function complete(script: string, words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _kubelite; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter((l) => l !== '');
}

test('the bash script completes commands, each command\'s flags, completion\'s shells, and leaves other words to file names', () => {
  const script = bashCompletion(['up', 'down', 'completion'], new Map([['up', ['--data-dir', '--port']], ['down', ['--data-dir', '--timeout']]]));
  assert.deepEqual(complete(script, ['kubelite', 'd']), ['down']);
  assert.deepEqual(complete(script, ['kubelite', 'up', '--']), ['--data-dir', '--port', '--help']);
  assert.deepEqual(complete(script, ['kubelite', 'down', '--t']), ['--timeout']);
  assert.deepEqual(complete(script, ['kubelite', 'completion', '']), ['bash', 'zsh']);
  assert.deepEqual(complete(script, ['kubelite', 'up', '--data-dir', 'sr']), []);
});
