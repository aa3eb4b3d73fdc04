// A list as a meta.k8s.io Table in JSON (what `kubectl get` asks for), rows made from the watch
// cache's bytes. A row is the printer's cells and the object's metadata as PartialObjectMetadata;
// that metadata is copied from the stored JSON as it is (already in the form and escaping it is
// served in), and the printer gets the object parsed without its managedFields, which no printer
// of a built-in kind reads and which are most of what parsing a pod would make. Byte for byte
// what encoding the whole Table would give (encode.ts's buildTable), streamed.
import type { KubeObject } from '../api/schema/kind.js';
import { memberCut, memberRange, type MemberRange } from '../machinery/codec/json-members.js';
import { goEscape } from '../machinery/status.js';
import { sharedDecoding } from '../registry/decode-cached.js';
import type { TablePrinter } from '../registry/printers/types.js';
import type { CachedObject } from '../storage/cacher/types.js';
import { ChunkCopier, releaseChunk, type StreamedBody } from './stream-chunks.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface TableListOptions {
  /** meta.k8s.io/v1 or meta.k8s.io/v1beta1. */
  apiVersion: string;
  /** What each row's `object` is: the object's PartialObjectMetadata, or null. */
  includeObject: 'Metadata' | 'None';
  now: number;
  /** The printer reads metadata.managedFields (a custom resource's columns may): parse them too. */
  printerReadsManagedFields: boolean;
}

/** What a row is made of: the object for the printer, and where its metadata is in `json`. */
interface RowSource {
  object: KubeObject;
  json: Uint8Array;
  metadata: MemberRange | undefined;
}

function rowSource(o: CachedObject, withManagedFields: boolean): RowSource {
  const json = o.json;
  const metadata = memberRange(json, 0, 'metadata');
  const shared = sharedDecoding(o);
  if (shared !== undefined) return { object: shared, json, metadata };
  const managedFields = metadata && !withManagedFields ? memberRange(json, metadata.valueStart, 'managedFields') : undefined;
  if (metadata === undefined || managedFields === undefined) return { object: JSON.parse(decoder.decode(json)) as KubeObject, json, metadata };
  const cut = memberCut(json, metadata.valueStart, managedFields);
  const text = decoder.decode(json.subarray(0, cut.start)) + decoder.decode(json.subarray(cut.end));
  return { object: JSON.parse(text) as KubeObject, json, metadata };
}

/** The Table of `items` (storage-version objects of one kind) with `printer`'s columns. */
export function tableListStreamed(items: readonly CachedObject[], printer: TablePrinter, listMeta: KubeObject, opts: TableListOptions): StreamedBody {
  const envelope = goEscape(JSON.stringify({ kind: 'Table', apiVersion: opts.apiVersion, metadata: listMeta, columnDefinitions: printer.columns, rows: [] }));
  // Everything up to the rows' `[`, and what closes them.
  const head = encoder.encode(envelope.slice(0, -2));
  const tail = encoder.encode(']}\n');
  const partialHead = encoder.encode(`,"object":{"kind":"PartialObjectMetadata","apiVersion":"${opts.apiVersion}","metadata":`);
  const rowHeads: Uint8Array[] = [];
  const sources: RowSource[] = [];
  let length = head.byteLength + tail.byteLength + Math.max(0, items.length - 1);
  for (const o of items) {
    const source = rowSource(o, opts.printerReadsManagedFields);
    const conditions = printer.conditions?.(source.object);
    let row = `{"cells":${JSON.stringify(printer.cells(source.object, opts.now))}`;
    if (conditions) row += `,"conditions":${JSON.stringify(conditions)}`;
    if (opts.includeObject === 'None') row += ',"object":null}';
    else if (source.metadata === undefined) row += `,"object":${JSON.stringify({ kind: 'PartialObjectMetadata', apiVersion: opts.apiVersion })}}`;
    const rowHead = encoder.encode(goEscape(row));
    rowHeads.push(rowHead);
    sources.push(source);
    length += rowHead.byteLength;
    // PartialObjectMetadata around the stored metadata's bytes, and the row's closing brace.
    if (opts.includeObject === 'Metadata' && source.metadata !== undefined) length += partialHead.byteLength + (source.metadata.valueEnd - source.metadata.valueStart) + 2;
  }
  return { contentType: 'application/json', length, chunks: tableChunks(head, tail, partialHead, rowHeads, sources, opts.includeObject), release: releaseChunk };
}

function* tableChunks(head: Uint8Array, tail: Uint8Array, partialHead: Uint8Array, rowHeads: readonly Uint8Array[], sources: readonly RowSource[], includeObject: TableListOptions['includeObject']): Generator<Uint8Array> {
  const c = new ChunkCopier();
  c.put(head);
  for (let i = 0; i < rowHeads.length; i++) {
    if (i > 0) c.byte(0x2c);
    c.put(rowHeads[i]!);
    const { json, metadata } = sources[i]!;
    if (includeObject === 'Metadata' && metadata !== undefined) {
      c.put(partialHead);
      c.put(json, metadata.valueStart, metadata.valueEnd);
      c.byte(0x7d);
      c.byte(0x7d);
    }
    if (c.full.length > 0) yield* c.take();
  }
  c.put(tail);
  yield* c.finish();
}
