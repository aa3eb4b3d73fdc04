import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { run, testFs } from './shell.testutil.js';
import type { Vfs } from './vfs.js';

const LONG_DIR = 'a-directory-with-a-rather-long-name-to-need-the-ustar-prefix-field/and-another-level-below-it';
const LONG_FILE = `${'f'.repeat(120)}.txt`;
const hasGnuTar = spawnSync('tar', ['--version']).status === 0;

function binary(size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 7 + 3) % 256;
  return b;
}

/** A tree with what kubectl cp meets: nested and empty directories, long names, a symlink, modes, binary content. */
function populate(fs: Vfs): void {
  fs.mkdir('/data/sub/empty', '/', { parents: true });
  fs.writeFile('/data/hello.txt', 'hello\n');
  fs.writeFile('/data/sub/run.sh', '#!/bin/sh\necho hi\n', '/', { mode: 0o755 });
  fs.writeFile('/data/sub/blob.bin', binary(300_000));
  fs.mkdir(`/data/${LONG_DIR}`, '/', { parents: true });
  fs.writeFile(`/data/${LONG_DIR}/${LONG_FILE}`, 'long\n');
  fs.symlink('hello.txt', '/data/link');
}

function assertPopulated(fs: Vfs, root: string): void {
  assert.equal(fs.readFile(`${root}/hello.txt`).toString(), 'hello\n');
  assert.equal(fs.readFile(`${root}/sub/run.sh`).toString(), '#!/bin/sh\necho hi\n');
  assert.equal(fs.stat(`${root}/sub/run.sh`).mode, 0o755);
  assert.ok(fs.readFile(`${root}/sub/blob.bin`).equals(binary(300_000)));
  assert.equal(fs.stat(`${root}/sub/empty`).kind, 'dir');
  assert.equal(fs.readFile(`${root}/${LONG_DIR}/${LONG_FILE}`).toString(), 'long\n');
  const link = fs.lstat(`${root}/link`);
  assert.equal(link.kind === 'symlink' && link.target, 'hello.txt');
}

test('tar round trip: cf - then -xmf - -C, as kubectl cp runs them', async () => {
  const src = testFs();
  populate(src);
  const archive = await run(['tar', 'cf', '-', '/data'], { fs: src });
  assert.equal(archive.status, 0);
  assert.equal(archive.stderr, "tar: removing leading '/' from member names\n");
  assert.equal(archive.out.length % 10240, 0);
  const dst = testFs();
  dst.mkdir('/dst');
  for (const argv of [
    ['tar', '-xmf', '-', '-C', '/dst'],
    ['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-', '-C', '/dst'],
  ]) {
    const x = await run(argv, { fs: dst, stdin: archive.out });
    assert.equal(x.stderr, '');
    assert.equal(x.status, 0);
    assertPopulated(dst, '/dst/data');
  }
  // -m: the extracted files get the time of extraction; without it, the archive's.
  const listing = await run(['tar', 'tf', '-'], { fs: dst, stdin: archive.out });
  assert.ok(listing.stdout.split('\n').includes('data/hello.txt'));
  assert.ok(listing.stdout.split('\n').includes(`data/${LONG_DIR}/${LONG_FILE}`));
});

test('--no-same-permissions applies the umask; without it the modes are kept', async () => {
  const src = testFs();
  src.writeFile('/tmp/open', 'x', '/', { mode: 0o777 });
  const archive = (await run(['tar', 'cf', '-', '-C', '/tmp', 'open'], { fs: src })).out;
  const kept = testFs();
  await run(['tar', 'xf', '-', '-C', '/tmp'], { fs: kept, stdin: archive });
  assert.equal(kept.stat('/tmp/open').mode, 0o777);
  const masked = testFs();
  await run(['tar', '--no-same-permissions', '-xf', '-', '-C', '/tmp'], { fs: masked, stdin: archive });
  assert.equal(masked.stat('/tmp/open').mode, 0o755);
});

test('kubectl cp --retries: `tar cf - X | tail -c+N` resumes the archive at byte N', async () => {
  const fs = testFs();
  populate(fs);
  const whole = (await run(['tar', 'cf', '-', '/data'], { fs })).out;
  const from1 = (await run(['sh', '-c', 'tar cf - /data | tail -c+1'], { fs })).out;
  assert.ok(from1.equals(whole));
  const from5000 = (await run(['sh', '-c', 'tar cf - /data | tail -c+5001'], { fs })).out;
  assert.ok(from5000.equals(whole.subarray(5000)));
  assert.equal((await run(['test', '-d', '/data'], { fs })).status, 0);
  assert.equal((await run(['test', '-d', '/data/hello.txt'], { fs })).status, 1);
});

test('tar errors: not an archive, an empty stream, a missing -C directory, a missing path, a read-only or full filesystem', async () => {
  const fs = testFs();
  const garbage = await run(['tar', 'xf', '-'], { fs, stdin: Buffer.alloc(1024, 'x') });
  assert.deepEqual([garbage.status, garbage.stderr], [1, 'tar: invalid tar header checksum\n']);
  const empty = await run(['tar', 'xf', '-'], { fs, stdin: '' });
  assert.deepEqual([empty.status, empty.stderr], [1, 'tar: short read\n']);
  const noDir = await run(['tar', 'xf', '-', '-C', '/nope'], { fs, stdin: '' });
  assert.deepEqual([noDir.status, noDir.stderr], [1, "tar: can't change directory to '/nope': No such file or directory\n"]);
  const missing = await run(['tar', 'cf', '-', 'nope'], { fs });
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, 'tar: nope: No such file or directory\n');
  assert.equal(missing.out.length, 10240);

  const src = testFs();
  populate(src);
  const archive = (await run(['tar', 'cf', '-', '-C', '/data', '.'], { fs: src })).out;
  const ro = testFs();
  ro.mount('/ro', ro.newDir(0o755), true);
  const roResult = await run(['tar', 'xf', '-', '-C', '/ro'], { fs: ro, stdin: archive });
  assert.equal(roResult.status, 1);
  assert.match(roResult.stderr, /^tar: can't .* Read-only file system\n$/);
  const full = testFs({ budgetBytes: 100_000 });
  const fullResult = await run(['tar', 'xf', '-', '-C', '/tmp'], { fs: full, stdin: archive });
  assert.equal(fullResult.status, 1);
  assert.match(fullResult.stderr, /No space left on device/);
});

test('tar skips members that would leave the target directory', async () => {
  const src = testFs();
  src.mkdir('/x/y', '/', { parents: true });
  src.writeFile('/x/y/evil', 'e');
  // An archive whose member is "x/y/../../../escape": made by extracting names we choose.
  const archive = (await run(['tar', 'cf', '-', '-C', '/x', 'y/evil'], { fs: src })).out;
  const name = Buffer.from('../../escape');
  const patched = Buffer.from(archive);
  patched.fill(0, 0, 100);
  name.copy(patched, 0);
  // Fix the header checksum for the new name.
  patched.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += patched[i]!;
  Buffer.from(`${sum.toString(8).padStart(6, '0')}\0 `).copy(patched, 148);
  const dst = testFs();
  dst.mkdir('/deep/er', '/', { parents: true });
  const r = await run(['tar', 'xf', '-', '-C', '/deep/er'], { fs: dst, stdin: patched });
  assert.equal(r.stderr, "tar: skipping unsafe member name '../../escape'\n");
  assert.equal(dst.exists('/escape'), false);
});

function hostTar(args: string[], input?: Buffer): Promise<{ status: number; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? -1, out: Buffer.concat(out), err }));
    child.stdin.end(input ?? Buffer.alloc(0));
  });
}

test('GNU tar extracts what our tar creates', { skip: !hasGnuTar && 'no tar on this machine' }, async () => {
  const fs = testFs();
  populate(fs);
  const archive = (await run(['tar', 'cf', '-', '/data'], { fs })).out;
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-tar-'));
  try {
    const r = await hostTar(['-xf', '-', '-C', dir], archive);
    assert.equal(r.err, '');
    assert.equal(r.status, 0);
    assert.equal(readFileSync(join(dir, 'data/hello.txt'), 'utf8'), 'hello\n');
    assert.equal(statSync(join(dir, 'data/sub/run.sh')).mode & 0o777, 0o755);
    assert.ok(readFileSync(join(dir, 'data/sub/blob.bin')).equals(binary(300_000)));
    assert.ok(statSync(join(dir, 'data/sub/empty')).isDirectory());
    assert.equal(readFileSync(join(dir, 'data', LONG_DIR, LONG_FILE), 'utf8'), 'long\n');
    assert.equal(readlinkSync(join(dir, 'data/link')), 'hello.txt');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('our tar extracts what GNU tar creates (ustar, gnu and pax formats)', { skip: !hasGnuTar && 'no tar on this machine' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-tar-'));
  try {
    mkdirSync(join(dir, 'data/sub/empty'), { recursive: true });
    writeFileSync(join(dir, 'data/hello.txt'), 'hello\n');
    writeFileSync(join(dir, 'data/sub/run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(dir, 'data/sub/run.sh'), 0o755);
    writeFileSync(join(dir, 'data/sub/blob.bin'), binary(300_000));
    mkdirSync(join(dir, 'data', LONG_DIR), { recursive: true });
    writeFileSync(join(dir, 'data', LONG_DIR, LONG_FILE), 'long\n');
    symlinkSync('hello.txt', join(dir, 'data/link'));
    assert.ok(lstatSync(join(dir, 'data/link')).isSymbolicLink());
    for (const format of ['gnu', 'pax', 'ustar']) {
      if (format === 'ustar' && LONG_FILE.length > 100) {
        // ustar cannot hold a 124-character file name: GNU tar refuses it, so leave it out.
        const r = await hostTar(['--format=ustar', '-cf', '-', '-C', dir, '--exclude', LONG_FILE, 'data']);
        assert.equal(r.status, 0, r.err);
        const fs = testFs();
        fs.mkdir('/dst');
        const x = await run(['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-', '-C', '/dst'], { fs, stdin: r.out });
        assert.equal(x.status, 0, x.stderr);
        assert.equal(fs.readFile('/dst/data/hello.txt').toString(), 'hello\n');
        continue;
      }
      const r = await hostTar([`--format=${format}`, '-cf', '-', '-C', dir, 'data']);
      assert.equal(r.status, 0, r.err);
      const fs = testFs();
      fs.mkdir('/dst');
      const x = await run(['tar', '-xmf', '-', '-C', '/dst'], { fs, stdin: r.out });
      assert.equal(x.stderr, '', format);
      assert.equal(x.status, 0);
      assertPopulated(fs, '/dst/data');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
