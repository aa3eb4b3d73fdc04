import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { run, testFs } from './shell.testutil.js';

interface Case {
  script: string;
  stdout?: string;
  stderr?: string;
  status?: number;
  stdin?: string;
}

// Each command with busybox's output and messages. The filesystem starts with /tmp, /etc/passwd,
// /etc/group; the time is 2026-01-02 03:04:05 UTC.
const CASES: Case[] = [
  // echo, printf
  { script: 'echo hello world', stdout: 'hello world\n' },
  { script: 'echo -n no newline', stdout: 'no newline' },
  { script: 'echo -e "a\\tb\\nc"', stdout: 'a\tb\nc\n' },
  { script: 'echo "a\\tb"', stdout: 'a\\tb\n' },
  { script: "printf '%s=%d\\n' a 1 b 2", stdout: 'a=1\nb=2\n' },
  { script: "printf '%5s|%-5s|%05d|%x|%.2f\\n' ab cd 42 255 3.14159", stdout: '   ab|cd   |00042|ff|3.14\n' },
  // env, printenv
  { script: 'env', stdout: 'PATH=/bin\nHOME=/root\n' },
  { script: 'env FOO=bar sh -c "echo \\$FOO"', stdout: 'bar\n' },
  { script: 'env -i A=1 env', stdout: 'A=1\n' },
  { script: 'printenv HOME', stdout: '/root\n' },
  { script: 'printenv NOPE', stdout: '', status: 1 },
  // cat, redirections
  { script: 'echo x > /tmp/f; cat /tmp/f', stdout: 'x\n' },
  { script: 'echo x > /tmp/f; echo y >> /tmp/f; cat /tmp/f', stdout: 'x\ny\n' },
  { script: 'cat < /etc/group | head -1', stdout: 'root:x:0:\n' },
  { script: 'cat /nope', stderr: "cat: can't open '/nope': No such file or directory\n", status: 1 },
  { script: 'cat /tmp', stderr: 'cat: read error: Is a directory\n', status: 1 },
  { script: 'cat', stdin: 'piped\n', stdout: 'piped\n' },
  { script: 'cat - /etc/group', stdin: 'first\n', stdout: 'first\nroot:x:0:\nusers:x:100:\nnogroup:x:65534:\n' },
  { script: 'cat /nope 2>&1', stdout: "cat: can't open '/nope': No such file or directory\n", status: 1 },
  { script: 'cat /nope 2>/dev/null; echo $?', stdout: '1\n' },
  { script: 'echo out >&2', stderr: 'out\n' },
  { script: 'echo x > /nodir/f', stderr: "sh: can't create /nodir/f: No such file or directory\n", status: 1 },
  { script: 'cat < /nope', stderr: "sh: can't open /nope: No such file or directory\n", status: 1 },
  // ls
  { script: 'mkdir /tmp/d; touch /tmp/d/b /tmp/d/a /tmp/d/.h; ls /tmp/d', stdout: 'a\nb\n' },
  { script: 'mkdir /tmp/d; touch /tmp/d/a /tmp/d/.h; ls -a /tmp/d', stdout: '.\n..\n.h\na\n' },
  { script: 'mkdir /tmp/d; echo 12345 > /tmp/d/f; ls -l /tmp/d', stdout: 'total 4\n-rw-r--r--    1 root     root             6 Jan  2 03:04 f\n' },
  { script: 'ln -s /etc/group /tmp/l; ls -l /tmp/l', stdout: 'lrwxrwxrwx    1 root     root            10 Jan  2 03:04 /tmp/l -> /etc/group\n' },
  { script: 'ls /nope', stderr: 'ls: /nope: No such file or directory\n', status: 1 },
  { script: 'cd /etc && ls -1 passwd group', stdout: 'group\npasswd\n' },
  // pwd, cd
  { script: 'cd /tmp && pwd', stdout: '/tmp\n' },
  { script: 'cd /nope', stderr: "sh: cd: can't cd to /nope: No such file or directory\n", status: 2 },
  { script: 'mkdir -p /tmp/a/b; cd /tmp/a/b/..; pwd; cd; pwd', stdout: '/tmp/a\n/root\n' },
  // mkdir, rm, touch, cp, mv
  { script: 'mkdir /tmp/x/y', stderr: "mkdir: can't create directory '/tmp/x/y': No such file or directory\n", status: 1 },
  { script: 'mkdir /tmp', stderr: "mkdir: can't create directory '/tmp': File exists\n", status: 1 },
  { script: 'mkdir -p /tmp/x/y && test -d /tmp/x/y && echo ok', stdout: 'ok\n' },
  { script: 'mkdir /tmp/d; rm /tmp/d', stderr: "rm: '/tmp/d' is a directory\n", status: 1 },
  { script: 'mkdir -p /tmp/d/e; touch /tmp/d/e/f; rm -r /tmp/d; ls /tmp', stdout: '' },
  { script: 'rm /tmp/nope', stderr: "rm: can't remove '/tmp/nope': No such file or directory\n", status: 1 },
  { script: 'rm -f /tmp/nope', stdout: '' },
  { script: 'rm -rf /tmp/nope /tmp', status: 0 },
  { script: 'echo a > /tmp/a; cp /tmp/a /tmp/b; cat /tmp/b', stdout: 'a\n' },
  { script: 'mkdir /tmp/d; cp /tmp/d /tmp/e', stderr: "cp: omitting directory '/tmp/d'\n", status: 1 },
  { script: 'mkdir /tmp/d; echo z > /tmp/d/f; cp -r /tmp/d /tmp/e; cat /tmp/e/f', stdout: 'z\n' },
  { script: 'cp /tmp/nope /tmp/x', stderr: "cp: can't stat '/tmp/nope': No such file or directory\n", status: 1 },
  { script: 'echo a > /tmp/a; mkdir /tmp/d; mv /tmp/a /tmp/d; ls /tmp /tmp/d', stdout: '/tmp:\nd\n\n/tmp/d:\na\n' },
  { script: 'mv /tmp/nope /tmp/x', stderr: "mv: can't stat '/tmp/nope': No such file or directory\n", status: 1 },
  { script: 'touch /nodir/f', stderr: 'touch: /nodir/f: No such file or directory\n', status: 1 },
  { script: 'echo x > /tmp/s; chmod 755 /tmp/s; ls -l /tmp/s', stdout: '-rwxr-xr-x    1 root     root             2 Jan  2 03:04 /tmp/s\n' },
  { script: 'echo x > /tmp/s; chmod u+x,go-r /tmp/s; ls -l /tmp/s', stdout: '-rwx------    1 root     root             2 Jan  2 03:04 /tmp/s\n' },
  // test / [
  { script: '[ -f /etc/passwd ] && echo f', stdout: 'f\n' },
  { script: '[ -d /etc/passwd ] || echo notdir', stdout: 'notdir\n' },
  { script: 'test -e /nope', status: 1 },
  { script: '[ -z "" ] && [ -n x ] && echo strings', stdout: 'strings\n' },
  { script: '[ a = a ] && [ a != b ] && echo eq', stdout: 'eq\n' },
  { script: '[ 2 -lt 10 ] && [ 10 -ge 10 ] && echo nums', stdout: 'nums\n' },
  { script: '[ ! -e /nope ] && echo neg', stdout: 'neg\n' },
  { script: '[ -f /etc/passwd -a -d /tmp ] && echo and', stdout: 'and\n' },
  { script: '[ x', stderr: 'sh: [: missing ]\n', status: 2 },
  { script: '[ a -lt 1 ]', stderr: 'sh: a: bad number\n', status: 2 },
  { script: 'test', status: 1 },
  // true, false, hostname, id, whoami, uname, date
  { script: 'true; echo $?; false; echo $?', stdout: '0\n1\n' },
  { script: 'hostname', stdout: 'pod-1\n' },
  { script: 'id', stdout: 'uid=0(root) gid=0(root) groups=0(root),1,2,3,4,6,10,11,20,26,27\n' },
  { script: 'id -u; id -un', stdout: '0\nroot\n' },
  { script: 'whoami', stdout: 'root\n' },
  { script: 'uname; uname -n; uname -r', stdout: 'Linux\npod-1\n6.1.0-kubelite\n' },
  { script: 'date', stdout: 'Fri Jan  2 03:04:05 UTC 2026\n' },
  { script: 'date -u +%Y-%m-%dT%H:%M:%SZ', stdout: '2026-01-02T03:04:05Z\n' },
  { script: 'date +%s', stdout: `${Date.UTC(2026, 0, 2, 3, 4, 5) / 1000}\n` },
  // head, tail, wc, grep, tee, sort
  { script: 'printf "1\\n2\\n3\\n4\\n" | head -2', stdout: '1\n2\n' },
  { script: 'printf "1\\n2\\n3\\n4\\n" | head -n 3', stdout: '1\n2\n3\n' },
  { script: 'printf "abcdef" | head -c 3', stdout: 'abc' },
  { script: 'printf "1\\n2\\n3\\n4\\n" | tail -2', stdout: '3\n4\n' },
  { script: 'printf "1\\n2\\n3\\n4\\n" | tail -n +3', stdout: '3\n4\n' },
  { script: 'printf "abcdef" | tail -c 2', stdout: 'ef' },
  { script: 'printf "abcdef" | tail -c+3', stdout: 'cdef' },
  { script: 'printf "abcdef" | tail -c+0', stdout: 'abcdef' },
  { script: 'printf "a b\\nc\\n" | wc', stdout: '      2       3       6\n' },
  { script: 'printf "a b\\nc\\n" | wc -l', stdout: '2\n' },
  { script: 'wc -c /etc/group', stdout: '     40 /etc/group\n' },
  { script: 'grep root /etc/passwd', stdout: 'root:x:0:0:root:/root:/bin/sh\n' },
  { script: 'grep -v root /etc/passwd', stdout: 'nobody:x:65534:65534:nobody:/home:/bin/false\n' },
  { script: 'grep -c o /etc/passwd', stdout: '2\n' },
  { script: 'grep -n nobody /etc/passwd', stdout: '2:nobody:x:65534:65534:nobody:/home:/bin/false\n' },
  { script: 'grep -i ROOT -q /etc/passwd && echo found', stdout: 'found\n' },
  { script: 'grep nothing /etc/passwd', stdout: '', status: 1 },
  { script: 'grep x /nope', stderr: "grep: can't open '/nope': No such file or directory\n", status: 2 },
  { script: 'echo "a.c abc" | grep -o -F "a.c" >/dev/null; echo "abc" | grep "a.c"', stdout: 'abc\n' },
  { script: 'echo "aXc" | grep -F "a.c"', status: 1 },
  { script: 'echo "ab+" | grep "b+"', stdout: 'ab+\n' },
  { script: 'echo "abbb" | grep -E "b+$"', stdout: 'abbb\n' },
  { script: 'echo "x" | grep -e x /etc/passwd -', stdout: '/etc/passwd:root:x:0:0:root:/root:/bin/sh\n/etc/passwd:nobody:x:65534:65534:nobody:/home:/bin/false\n(standard input):x\n' },
  { script: 'echo teed | tee /tmp/t; cat /tmp/t', stdout: 'teed\nteed\n' },
  { script: 'printf "b\\na\\nc\\na\\n" | sort -u', stdout: 'a\nb\nc\n' },
  { script: 'printf "10\\n9\\n100\\n" | sort -n -r', stdout: '100\n10\n9\n' },
  // which, command -v, type, basename, dirname
  { script: 'which ls tar', stdout: '/bin/ls\n/bin/tar\n' },
  { script: 'command -v cd; command -v cat', stdout: 'cd\n/bin/cat\n' },
  { script: 'basename /a/b/c.txt .txt; dirname /a/b/c.txt', stdout: 'c\n/a/b\n' },
  // sleep
  { script: 'sleep 0 && sleep 0.01 && echo slept', stdout: 'slept\n' },
  { script: 'sleep x', stderr: "sleep: invalid number 'x'\n", status: 1 },
  // commands that do not exist
  { script: 'nosuch', stderr: 'sh: nosuch: not found\n', status: 127 },
  { script: 'nosuch arg; echo $?', stdout: '127\n', stderr: 'sh: nosuch: not found\n' },
  { script: '/bin/nosuch', stderr: 'sh: /bin/nosuch: not found\n', status: 127 },
  { script: '/bin/ls /etc', stdout: 'group\npasswd\n' },
  { script: 'echo x > /tmp/s; /tmp/s', stderr: 'sh: /tmp/s: Permission denied\n', status: 126 },
  { script: 'printf "#!/bin/sh\\necho script \\$1\\nexit 5\\n" > /tmp/s; chmod +x /tmp/s; /tmp/s arg', stdout: 'script arg\n', status: 5 },
  { script: 'busybox echo via busybox', stdout: 'via busybox\n' },
  // read
  { script: 'printf "a b c\nd\n" | while read x rest; do echo "[$x|$rest]"; done', stdout: '[a|b c]\n[d|]\n' },
  { script: 'printf "1\n2" > /tmp/f; while read n; do echo $n; done < /tmp/f; echo $n', stdout: '1\n2\n' },
  { script: 'read v; echo "$v/$?"', stdin: 'line\n', stdout: 'line/0\n' },
];

for (const c of CASES) {
  test(`builtin: ${c.script}`, async () => {
    const r = await run(c.script, { stdin: c.stdin });
    if (c.stdout !== undefined) assert.equal(r.stdout, c.stdout);
    assert.equal(r.stderr, c.stderr ?? '');
    assert.equal(r.status, c.status ?? 0);
  });
}

test('exec without a shell: argv as given, 127 for an unknown command', async () => {
  assert.deepEqual(await run(['echo', 'a  b', '$HOME']), { status: 0, stdout: 'a  b $HOME\n', stderr: '', out: Buffer.from('a  b $HOME\n') });
  const r = await run(['nosuch', 'x']);
  assert.equal(r.status, 127);
  assert.equal(r.stderr, 'sh: nosuch: not found\n');
  assert.equal((await run(['/usr/bin/env'], { env: { A: 'b' } })).stdout, 'A=b\n');
});

test('writes past the byte budget fail with ENOSPC, and what was written stays within it', async () => {
  const fs = testFs({ budgetBytes: 1024 });
  const r = await run('head -c 2000 /tmp/big > /tmp/copy', { fs });
  assert.equal(r.status, 1);
  const big = await run('printf "%0800d" 0 > /tmp/a; printf "%0800d" 0 > /tmp/b', { fs });
  assert.equal(big.status, 1);
  assert.match(big.stderr, /printf: write error: No space left on device/);
  assert.ok(fs.usedBytes <= 1024);
  // Removing a file gives its bytes back.
  assert.equal((await run('rm /tmp/a; printf "%0800d" 0 > /tmp/c; echo ok', { fs })).stdout, 'ok\n');
});

test('read-only mounts refuse writes with "Read-only file system"', async () => {
  const fs = testFs();
  const dir = fs.newDir(0o755);
  fs.mount('/etc/config', dir, true);
  fs.writeFile('/tmp/x', 'x');
  const r = await run('echo x > /etc/config/f; touch /etc/config/g; mkdir /etc/config/d; rm -rf /etc/config; cp /tmp/x /etc/config/', { fs });
  assert.equal(
    r.stderr,
    [
      "sh: can't create /etc/config/f: Read-only file system",
      'touch: /etc/config/g: Read-only file system',
      "mkdir: can't create directory '/etc/config/d': Read-only file system",
      "rm: can't remove '/etc/config': Resource busy",
      "cp: can't create '/etc/config/x': Read-only file system",
      '',
    ].join('\n'),
  );
});

test('a pipeline stops its writer when the reader is done (no deadlock on a big file)', async () => {
  const fs = testFs();
  fs.writeFile('/tmp/big', Buffer.alloc(4 * 1024 * 1024, 'a\n'));
  const r = await run('cat /tmp/big | head -3', { fs });
  assert.equal(r.stdout, 'a\na\na\n');
  assert.equal(r.status, 0);
});

test('stdout backpressure: a slow reader receives the whole file in order', async () => {
  const fs = testFs();
  const content = Buffer.alloc(3 * 1024 * 1024);
  for (let i = 0; i < content.length; i++) content[i] = i % 251;
  fs.writeFile('/tmp/big', content);
  const { runCommand } = await import('./index.js');
  const out = new PassThrough({ highWaterMark: 1024 });
  const received: Buffer[] = [];
  // Read slowly: one chunk per turn of the event loop.
  const reader = (async () => {
    for await (const chunk of out) {
      received.push(chunk as Buffer);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const status = await runCommand(['cat', '/tmp/big'], { stdin: undefined, stdout: out, stderr: new PassThrough(), tty: false }, { fs, env: {}, hostname: 'h', signal: new AbortController().signal });
  out.end();
  await reader;
  assert.equal(status, 0);
  assert.ok(Buffer.concat(received).equals(content));
});

test('sleep and endless loops stop when the signal aborts (status 137)', async () => {
  for (const script of ['sleep 3600', 'while true; do :; done', 'tail -f /etc/group']) {
    const ac = new AbortController();
    const result = run(script, { signal: ac.signal });
    setImmediate(() => ac.abort());
    assert.equal((await result).status, 137, script);
  }
});

test('sh reading stdin runs each command as its line arrives and stops at exit', async () => {
  const r = await run(['sh'], { stdin: 'echo one\nif true\nthen echo two\nfi\nexit 4\necho never\n' });
  assert.equal(r.stdout, 'one\ntwo\n');
  assert.equal(r.status, 4);
  assert.equal((await run(['sh'], { stdin: 'false' })).status, 1);
  assert.equal((await run(['sh'], { stdin: 'echo "open\n' })).stderr, 'sh: syntax error: unexpected end of file\n');
});

test('sh -it: prompt, echo of typed characters, backspace, ^C, cd in the prompt, exit', async () => {
  const r = await run(['sh'], { tty: true, stdin: 'echo hx\x7fi\rcd /tmp\rsleep 9\x03exit 3\r' });
  assert.equal(r.status, 3);
  assert.equal(r.stdout, '/ # echo hx\b \bi\r\nhi\r\n/ # cd /tmp\r\n/tmp # sleep 9^C\r\n/tmp # exit 3\r\n');
  const eof = await run(['sh'], { tty: true, stdin: 'true\r\x04' });
  assert.equal(eof.status, 0);
  assert.equal(eof.stdout, '/ # true\r\n/ # ');
});

test('the tty environment: TERM and \\r\\n line endings', async () => {
  const r = await run(['sh', '-c', 'echo $TERM; echo b'], { tty: true });
  assert.equal(r.stdout, 'xterm\r\nb\r\n');
});

test('id, whoami and ls name the user of the securityContext', async () => {
  const user = { uid: 1000, gid: 3000, groups: [3000, 2000] };
  assert.equal((await run('id', { user })).stdout, 'uid=1000 gid=3000 groups=3000,2000\n');
  const w = await run('whoami', { user });
  assert.equal(w.stderr, 'whoami: unknown uid 1000\n');
  assert.equal(w.status, 1);
  assert.equal((await run('id -u -n', { user: { uid: 65534, gid: 65534, groups: [] } })).stdout, 'nobody\n');
});
