import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FsError, Vfs, dirname, normalizePath } from './vfs.js';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof FsError, String(err));
    return err.code;
  }
}

test('paths: normalisation, dirname, symlinks followed in the middle and (optionally) at the end, loops', () => {
  assert.equal(normalizePath('a/../b/./c', '/x'), '/x/b/c');
  assert.equal(normalizePath('/../..'), '/');
  assert.equal(dirname('/a/b/'), '/a');
  assert.equal(dirname('a'), '.');
  const fs = new Vfs();
  fs.mkdir('/a/b', '/', { parents: true });
  fs.writeFile('/a/b/f', 'x');
  fs.symlink('/a/b', '/l');
  fs.symlink('b/f', '/a/rel');
  assert.equal(fs.readFile('/l/f').toString(), 'x');
  assert.equal(fs.readFile('/a/rel').toString(), 'x');
  assert.equal(fs.resolve('/l/f').path, '/a/b/f');
  assert.equal(fs.lstat('/l').kind, 'symlink');
  fs.symlink('loop2', '/loop1');
  fs.symlink('loop1', '/loop2');
  assert.equal(code(() => fs.readFile('/loop1')), 'ELOOP');
  assert.equal(code(() => fs.readFile('/a/b/f/x')), 'ENOTDIR');
  assert.equal(code(() => fs.readFile('/a')), 'EISDIR');
  assert.equal(code(() => fs.mkdir('/a')), 'EEXIST');
  assert.equal(code(() => fs.remove('/a')), 'ENOTEMPTY');
  assert.equal(code(() => fs.rename('/a', '/a/b/inside')), 'EINVAL');
});

test('the byte budget: writes past it fail with ENOSPC; truncation, removal and renames over files give bytes back', () => {
  const fs = new Vfs({ budgetBytes: 10 });
  fs.writeFile('/a', '12345');
  fs.writeFile('/b', '12345');
  assert.equal(fs.usedBytes, 10);
  assert.equal(code(() => fs.writeFile('/c', 'x')), 'ENOSPC');
  fs.writeFile('/a', '1');
  assert.equal(fs.usedBytes, 6);
  fs.rename('/a', '/b');
  assert.equal(fs.usedBytes, 1);
  fs.remove('/b');
  assert.equal(fs.usedBytes, 0);
  const append = fs.openWrite('/d', '/', { append: true });
  append(Buffer.from('1234567890'));
  assert.equal(code(() => append(Buffer.from('1'))), 'ENOSPC');
  assert.equal(fs.readFile('/d').length, 10);
});

test('read-only mounts: nothing under them changes, and the mount itself cannot be removed', () => {
  const fs = new Vfs();
  const vol = fs.newDir(0o755);
  vol.entries.set('f', fs.newFile(Buffer.from('v'), 0o644));
  fs.mount('/mnt/vol', vol, true);
  assert.equal(fs.readFile('/mnt/vol/f').toString(), 'v');
  assert.equal(code(() => fs.writeFile('/mnt/vol/f', 'w')), 'EROFS');
  assert.equal(code(() => fs.writeFile('/mnt/vol/g', 'w')), 'EROFS');
  assert.equal(code(() => fs.mkdir('/mnt/vol/d')), 'EROFS');
  assert.equal(code(() => fs.remove('/mnt/vol/f')), 'EROFS');
  assert.equal(code(() => fs.remove('/mnt/vol', '/', { recursive: true })), 'EBUSY');
  assert.equal(code(() => fs.remove('/mnt', '/', { recursive: true })), 'EBUSY');
  assert.equal(code(() => fs.rename('/mnt/vol/f', '/f')), 'EROFS');
  // Beside the mount, the filesystem stays writable.
  fs.writeFile('/mnt/other', 'ok');
});
