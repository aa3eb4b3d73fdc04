// The full-disk guard: refuses a write that would leave less than the reserve free, counts writes
// between two looks at the file system, looks again before refusing, and logs at most every 10 s.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStorageError } from '../types.js';
import { DiskSpaceGuard, RESERVE_BYTES } from './disk-space.js';

test('writes are admitted while the reserve holds, refused after, and admitted again once space is freed', () => {
  let free = RESERVE_BYTES + 10 * 1024 * 1024;
  let now = 0;
  let looks = 0;
  const logged: unknown[] = [];
  const guard = new DiskSpaceGuard('/data', (f) => void logged.push(f), { freeBytes: () => (looks++, free), readOnly: () => false, now: () => now });
  guard.admit(1024 * 1024); // 4 MiB counted against the 10 above the reserve
  guard.admit(1024 * 1024);
  assert.equal(looks, 1);
  // the third would go below the reserve by the count alone: the file system is asked again, and it agrees
  free -= 8 * 1024 * 1024;
  assert.throws(() => guard.admit(1024 * 1024), (e: unknown) => isStorageError(e, 'NoSpace') && /the disk holding \/data is full/.test(e.message));
  assert.throws(() => guard.admit(1024 * 1024), (e: unknown) => isStorageError(e, 'NoSpace'));
  assert.equal(logged.length, 1);
  // a small write still fits above the reserve
  guard.admit(1024);
  now += 10_000;
  assert.throws(() => guard.admit(1024 * 1024));
  assert.equal(logged.length, 2);
  free += 64 * 1024 * 1024;
  guard.admit(1024 * 1024);
});

test('writes are refused while the file system is read-only, and admitted again once it is writable', () => {
  let readOnly = false;
  let now = 0;
  const logged: Array<Record<string, unknown>> = [];
  const guard = new DiskSpaceGuard('/data', (f) => void logged.push(f), { freeBytes: () => 1024 ** 3, readOnly: () => readOnly, now: () => now });
  guard.admit(1024);
  readOnly = true;
  // the guard looks again after its interval, and refuses
  now += 250;
  assert.throws(() => guard.admit(1024), (e: unknown) => isStorageError(e, 'ReadOnly') && /the data dir \/data is on a read-only file system \(EROFS\)/.test(e.message));
  assert.throws(() => guard.admit(1024), (e: unknown) => isStorageError(e, 'ReadOnly'));
  assert.equal(logged.length, 1);
  assert.match(String(logged[0]!.msg), /read-only/);
  // a refusing guard looks again on every write: the first after the remount goes through
  readOnly = false;
  guard.admit(1024);
});
