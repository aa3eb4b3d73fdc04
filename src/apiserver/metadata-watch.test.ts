// A metadata-only watch (as=PartialObjectMetadata, the garbage collector's informers) carries
// PartialObjectMetadata objects, as kube-apiserver transforms each watch event: in JSON the
// stored metadata's bytes, in protobuf the PartialObjectMetadata message; bookmarks too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PartialObjectMetadata } from '../api/meta/v1.js';
import { decodeWatchFrame, JsonWatchDecoder, WatchFrameDecoder } from '../machinery/codec/watch.js';
import { startApiServer, type ApiServer } from './server.js';

const PATH = '/api/v1/namespaces/default/configmaps';
const AS_METADATA = 'as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

interface Event {
  type: string;
  object: { kind?: string; apiVersion?: string; metadata?: Record<string, unknown>; data?: unknown };
}

/** The events of a watch until `done` says enough (or the stream ends). */
async function watchUntil(url: string, accept: string, done: (events: Event[]) => boolean): Promise<Event[]> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept }, signal: abort.signal });
  assert.equal(res.status, 200);
  const events: Event[] = [];
  const json = new JsonWatchDecoder();
  const frames = new WatchFrameDecoder();
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      if (accept.startsWith('application/json')) for (const line of json.push(chunk)) events.push(JSON.parse(line) as Event);
      else for (const f of frames.push(chunk)) events.push(decodeWatchFrame(f, PartialObjectMetadata) as unknown as Event);
      if (done(events)) break;
    }
  } finally {
    abort.abort();
  }
  return events;
}

for (const fastPath of [true, false]) {
  describe(`a metadata-only watch (fast path ${fastPath ? 'on' : 'off'})`, () => {
    let server: ApiServer;
    before(async () => {
      server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, fastPath });
    });
    after(() => server.close());

    for (const mediaType of ['application/json', 'application/vnd.kubernetes.protobuf']) {
      it(`sends PartialObjectMetadata objects and bookmarks in ${mediaType}`, async () => {
        const name = `cm-${mediaType.length}-${fastPath}`;
        const created = await fetch(`${server.url}${PATH}?fieldManager=tester`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'x' }, annotations: { note: '<é>' } }, data: { k: 'v' } }),
        });
        assert.equal(created.status, 201);
        const full = (await created.json()) as Event['object'];
        const url = `${server.url}${PATH}?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&fieldSelector=metadata.name%3D${name}`;
        const events = await watchUntil(url, `${mediaType};${AS_METADATA}`, (evs) => evs.some((e) => e.type === 'BOOKMARK'));
        const added = events.find((e) => e.type === 'ADDED');
        assert.ok(added, 'an ADDED event');
        assert.equal(added.object.kind, 'PartialObjectMetadata');
        assert.equal(added.object.apiVersion, 'meta.k8s.io/v1');
        assert.equal(added.object.data, undefined);
        assert.deepEqual(added.object.metadata, full.metadata);
        const bookmark = events.find((e) => e.type === 'BOOKMARK')!;
        assert.equal(bookmark.object.kind, 'PartialObjectMetadata');
        assert.equal((bookmark.object.metadata?.annotations as Record<string, string>)['k8s.io/initial-events-end'], 'true');
      });
    }
  });
}
