// Which containers run as processes under the process runtime, and what runs for them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostCommand } from './host-command.js';
import { LoopbackIPs, parseLoopbackCIDR } from './loopback-ips.js';
import { rootRefusal } from './runtime.js';

const NODE = '/usr/local/bin/node';

test('node images run the host node; shell images the host shell; absolute host commands as they are; the rest stays simulated', () => {
  const cases: Array<[object, ReturnType<typeof hostCommand>]> = [
    [{ image: 'node:20', command: ['node', '-e', 'x'] }, { file: NODE, args: ['-e', 'x'], node: true }],
    [{ image: 'docker.io/library/node:20-alpine', args: ['server.js'] }, { file: NODE, args: ['server.js'], node: true }],
    [{ image: 'node', args: ['-e', 'x'] }, { file: NODE, args: ['-e', 'x'], node: true }],
    [{ image: 'node:20' }, { file: NODE, args: [], node: true }],
    [{ image: 'node:20', command: ['sh', '-c', 'echo hi'] }, { file: '/bin/sh', args: ['-c', 'echo hi'], node: false }],
    [{ image: 'node:20', command: ['npm', 'start'] }, { file: '/bin/sh', args: ['-c', 'exec "$@"', 'sh', 'npm', 'start'], node: false }],
    [{ image: 'busybox', command: ['sleep', '3600'] }, { file: '/bin/sh', args: ['-c', 'exec "$@"', 'sh', 'sleep', '3600'], node: false }],
    [{ image: 'alpine:3.20', command: ['/bin/sh', '-c', 'exit 3'] }, { file: '/bin/sh', args: ['-c', 'exit 3'], node: false }],
    [{ image: 'nginx', command: ['/bin/sh', '-c', 'exit 3'] }, { file: '/bin/sh', args: ['-c', 'exit 3'], node: false }],
    [{ image: 'nginx', command: ['/no/such/program'] }, undefined],
    [{ image: 'nginx' }, undefined],
    [{ image: 'registry.example/node:20', command: ['node'] }, undefined],
  ];
  for (const [c, want] of cases) assert.deepEqual(hostCommand(c, NODE, '/bin/sh'), want, JSON.stringify(c));
});

test('loopback pod IPs: unique, never a /24 network or broadcast address, released and adopted', () => {
  assert.equal(parseLoopbackCIDR('10.0.0.0/16'), undefined);
  assert.equal(parseLoopbackCIDR('127.0.0.0/8'), undefined);
  assert.deepEqual(parseLoopbackCIDR('127.64.9.0/24'), { base: 0x7f400900, size: 256 });
  const ips = new LoopbackIPs('127.64.9.0/24');
  const all = new Set<string>();
  for (let ip = ips.allocate(); ip !== undefined; ip = ips.allocate()) all.add(ip);
  assert.equal(all.size, 254);
  assert.ok(!all.has('127.64.9.0') && !all.has('127.64.9.255'));
  ips.release('127.64.9.7');
  assert.equal(ips.allocate(), '127.64.9.7');
  assert.equal(ips.adopt('127.65.0.1'), false);
  assert.throws(() => new LoopbackIPs('192.168.0.0/16'), /must be a loopback range/);
});

test('as root the process runtime needs --allow-root', () => {
  assert.match(rootRefusal(false, 0) ?? '', /this user is root: run as another user, or pass --allow-root/);
  assert.equal(rootRefusal(true, 0), undefined);
  assert.equal(rootRefusal(false, 1000), undefined);
});
