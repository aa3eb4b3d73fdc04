// Child process for the lmdb crash test (not a test itself): opens the store in argv[2] and
// creates keys as fast as it can from argv[3] concurrent writers, printing each key only after its
// create resolved. The test SIGKILLs it mid-stream and checks every printed key survived.
// Exit code 3 with a message on stderr when the store cannot be opened (the lock test uses that).
import { LmdbStorage } from './lmdb-storage.js';

const dataDir = process.argv[2];
const writers = Number(process.argv[3] ?? '32');
if (!dataDir) {
  process.stderr.write('usage: crash-writer.fixture.js <data-dir> [writers]\n');
  process.exit(2);
}

let store: LmdbStorage;
try {
  store = await LmdbStorage.open({ dataDir });
} catch (err) {
  process.stderr.write(`open failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(3);
}

/** Derived from the key so the test can check it (lmdb.test.ts has the same function). */
function crashValue(key: string): Buffer {
  return Buffer.from(`value of ${key} `.repeat(8));
}

await Promise.all(
  Array.from({ length: writers }, async (_, w) => {
    for (let i = 0; ; i++) {
      const key = `/registry/crash/w${w}/k${i}`;
      await store.create(key, crashValue(key));
      // Synchronous on pipes (Linux), so the line is out before the next write starts.
      process.stdout.write(`${key}\n`);
    }
  }),
);
