// A full disk under `kubelite apiserver --storage lmdb` (the data dir on a small tmpfs): writes are
// refused with a 500 Status saying the disk is full before they change anything, the API server
// logs the cause and keeps serving reads, writes work again once space is freed, and a restart on
// the same data dir finds every acknowledged object (the database intact). A data dir on a
// read-only file system is refused at start in one line, as etcd refuses one. Needs mount(2): root.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { KUBELITE_BIN } from '../support/kubelite.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '../support/http.js';
import { startApiserver } from '../support/kubelite.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'kubelite-full-disk-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mountPoint]).status === 0;
const PATH = '/api/v1/namespaces/default/configmaps';

describe('lmdb on a full disk', { skip: !mounted && 'cannot mount a tmpfs here (needs root)' }, () => {
  const dataDir = join(mountPoint, 'data');
  const filler = join(mountPoint, 'filler');
  after(() => {
    spawnSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });
  before(() => writeFileSync(filler, randomBytes(10 * 1024 * 1024)));

  it('refuses writes with a clear Status, keeps reading, writes again once space is freed, and loses nothing', async () => {
    const args = ['--storage', 'lmdb', '--data-dir', dataDir, '--storage-history', '1s', '--storage-history-revisions', '1'];
    let server = await startApiserver(args);
    let stderr = '';
    server.process.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
    const acknowledged: string[] = [];
    try {
      const client = new Client(server.url);
      let refused: { status: number; message: string } | undefined;
      // incompressible values until the disk is full
      for (let i = 0; i < 400 && !refused; i++) {
        const r = await client.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { v: randomBytes(150_000).toString('base64') } });
        if (r.status === 201) acknowledged.push(`cm-${i}`);
        else refused = { status: r.status, message: r.json.message as string };
      }
      assert.ok(refused, 'the disk never filled');
      assert.equal(refused.status, 500);
      assert.match(refused.message, /the disk holding .* is full \(.* free, .* needed to write\): writes are refused until space is freed/);
      assert.match(stderr, /"msg":"storage: writes refused, the disk is full"/);
      // reads go on
      const list = await client.get(`${PATH}?limit=1000`);
      assert.equal(list.status, 200);
      assert.deepEqual((list.json.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name).sort(), [...acknowledged].sort());
      // an update of the same size is refused too, and changes nothing
      const first = (await client.get(`${PATH}/${acknowledged[0]}`)).json as { metadata: { resourceVersion: string }; data: { v: string } };
      const update = await client.put(`${PATH}/${acknowledged[0]}`, { ...first, data: { v: randomBytes(150_000).toString('base64') } });
      assert.equal(update.status, 500);
      const unchanged = (await client.get(`${PATH}/${acknowledged[0]}`)).json as typeof first;
      assert.deepEqual([unchanged.metadata.resourceVersion, unchanged.data.v], [first.metadata.resourceVersion, first.data.v]);
      // space is back: writes work again
      rmSync(filler);
      const again = await client.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' }, data: { v: 'written once space was freed' } });
      assert.equal(again.status, 201, again.text);
      acknowledged.push('after');
    } finally {
      await server.stop();
    }
    // the database, reopened, holds every acknowledged object
    server = await startApiserver(args);
    try {
      const list = await new Client(server.url).get(`${PATH}?limit=1000`);
      assert.deepEqual((list.json.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name).sort(), [...acknowledged].sort());
    } finally {
      await server.stop();
    }
  });
});

describe('a data dir on a read-only file system', { skip: !mounted && 'cannot mount a tmpfs here (needs root)' }, () => {
  const roMount = mkdtempSync(join(tmpdir(), 'kubelite-read-only-'));
  const dataDir = join(roMount, 'data');
  after(() => {
    spawnSync('umount', [roMount]);
    rmSync(roMount, { recursive: true, force: true });
  });

  it('is refused at start in one line naming the cause, and the data written before is intact', async () => {
    assert.equal(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', roMount]).status, 0);
    const args = ['--storage', 'lmdb', '--data-dir', dataDir];
    let server = await startApiserver(args);
    try {
      assert.equal((await new Client(server.url).post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' }, data: { v: '1' } })).status, 201);
    } finally {
      await server.stop();
    }
    const remount = spawnSync('mount', ['-o', 'remount,ro', roMount], { encoding: 'utf8' });
    assert.equal(remount.status, 0, remount.stderr);
    for (const command of [['apiserver', '--port', '0', ...args], ['up', '--port', '0', '--nodes', '0', '--data-dir', dataDir]]) {
      const r = spawnSync(process.execPath, [KUBELITE_BIN, ...command], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 1, `${command[0]}: ${r.stderr}`);
      const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('[up]'));
      assert.deepEqual(lines, [`kubelite: the data dir ${command[0] === 'up' ? dataDir : join(dataDir, 'db')} is on a read-only file system (EROFS): kubelite keeps its data there and must write to it`]);
    }
    // writable again: the object written before is there
    assert.equal(spawnSync('mount', ['-o', 'remount,rw', roMount]).status, 0);
    server = await startApiserver(args);
    try {
      const got = await new Client(server.url).get(`${PATH}/before`);
      assert.equal(got.status, 200, got.text);
    } finally {
      await server.stop();
    }
  });
});
