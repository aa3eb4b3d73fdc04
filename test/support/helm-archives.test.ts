// The archive readers behind test/support/helm.ts (which run only when the tools are not cached
// yet): a tar made by the system's tar (long names included) and a zip with stored and deflated
// entries, as layer.zip has, written here by hand.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { deflateRawSync, gunzipSync } from 'node:zlib';
import { untar, unzip } from './helm.js';

/** A little-endian record of `size` bytes with the given [offset, bytes (2 or 4), value] fields. */
function record(size: number, fields: Array<[number, 2 | 4, number]>): Buffer {
  const b = Buffer.alloc(size);
  for (const [at, width, value] of fields) {
    if (width === 2) b.writeUInt16LE(value, at);
    else b.writeUInt32LE(value, at);
  }
  return b;
}

/** A zip archive of `files` (method 8 = deflate, 0 = stored), no zip64, CRCs left zero (the reader does not check them). */
function zipOf(files: Array<{ name: string; data: Buffer; method: 0 | 8 }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const body = f.method === 8 ? deflateRawSync(f.data) : f.data;
    const name = Buffer.from(f.name);
    const sizes = (at: number): Array<[number, 2 | 4, number]> => [[at, 4, body.length], [at + 4, 4, f.data.length], [at + 8, 2, name.length]];
    locals.push(record(30, [[0, 4, 0x04034b50], [8, 2, f.method], ...sizes(18)]), name, body);
    centrals.push(record(46, [[0, 4, 0x02014b50], [10, 2, f.method], ...sizes(20), [42, 4, offset]]), name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = record(22, [[0, 4, 0x06054b50], [8, 2, files.length], [10, 2, files.length], [12, 4, cd.length], [16, 4, offset]]);
  return Buffer.concat([...locals, cd, end]);
}

test('unzip: stored and deflated entries, directories skipped', () => {
  const big = Buffer.alloc(200_000, 'helm ');
  const zip = zipOf([
    { name: 'helm/', data: Buffer.alloc(0), method: 0 },
    { name: 'helm/helm', data: big, method: 8 },
    { name: 'kubectl/kubectl', data: Buffer.from('#!/bin/sh\n'), method: 0 },
  ]);
  const files = unzip(zip);
  assert.deepEqual([...files.keys()], ['helm/helm', 'kubectl/kubectl']);
  assert.ok(files.get('helm/helm')!.equals(big));
  assert.equal(files.get('kubectl/kubectl')!.toString(), '#!/bin/sh\n');
  assert.throws(() => unzip(Buffer.from('not a zip at all, no end record here')), /no end of central directory/);
});

test('untar: regular files of a .tgz, long paths included', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelite-untar-'));
  try {
    const long = `package/${'d'.repeat(120)}/file.txt`;
    mkdirSync(join(dir, 'package', 'lib'), { recursive: true });
    mkdirSync(join(dir, 'package', 'd'.repeat(120)));
    writeFileSync(join(dir, 'package', 'lib', 'layer.zip'), Buffer.alloc(1500, 7));
    writeFileSync(join(dir, long), 'deep');
    execFileSync('tar', ['-czf', join(dir, 'p.tgz'), '-C', dir, 'package']);
    const entries = untar(gunzipSync(readFileSync(join(dir, 'p.tgz'))));
    assert.ok(entries.get('package/lib/layer.zip')!.equals(Buffer.alloc(1500, 7)));
    assert.equal(entries.get(long)!.toString(), 'deep');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
