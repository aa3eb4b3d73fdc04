// Every option of the controller manager has its effect, or says in --help that it has none: each
// option's key (`--node-monitor-period` → nodeMonitorPeriod) is read somewhere in src/ outside the
// option table, unless it is listed in WITHOUT_EFFECT — and then it is read nowhere, so the list
// cannot claim "no effect" for an option that gained one.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OPTION_SPECS, WITHOUT_EFFECT, parseControllerManagerOptions } from '../../src/controller-manager/options.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !path.endsWith(join('controller-manager', 'options.ts'))) out.push(path);
  }
  return out;
}

const camel = (flag: string): string => flag.replace(/[-_]([a-z0-9])/g, (_, c: string) => c.toUpperCase());

test('each controller-manager option is read by the daemon or a controller, or --help says it has no effect', () => {
  const text = sources(root).map((f) => readFileSync(f, 'utf8')).join('\n');
  const read = (key: string) => new RegExp(`\\b${key}\\b`).test(text);
  const silent = OPTION_SPECS.filter((s) => !(s.flag in WITHOUT_EFFECT) && !read(camel(s.flag))).map((s) => s.flag);
  assert.deepEqual(silent, [], 'options nothing reads: make them work or list them in WITHOUT_EFFECT');
  const nowRead = Object.keys(WITHOUT_EFFECT).filter((flag) => read(camel(flag)));
  assert.deepEqual(nowRead, [], 'options listed without effect that something reads');
  assert.deepEqual(Object.keys(WITHOUT_EFFECT).filter((f) => !OPTION_SPECS.some((s) => s.flag === f)), [], 'WITHOUT_EFFECT names unknown options');
  let help = '';
  parseControllerManagerOptions(['--help'], { out: (s) => (help += s), err: (s) => (help += s) });
  const flat = help.replace(/\s+/g, ' ');
  for (const [flag, why] of Object.entries(WITHOUT_EFFECT)) {
    const start = flat.indexOf(` --${flag} `);
    const next = Math.min(...OPTION_SPECS.map((s) => flat.indexOf(` --${s.flag} `, start + 1)).filter((i) => i > start), flat.length);
    assert.ok(flat.slice(start, next).includes(`Accepted without effect: ${why}.`), flag);
  }
});
