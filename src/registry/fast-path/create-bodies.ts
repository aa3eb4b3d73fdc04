// Creates from one template send one body over and over: a ReplicaSet's or a Job's controller
// sends the same pod with a generateName, a client that names its objects sends bodies that differ
// in metadata.name only. Decoding such a body (JSON.parse and the schema's walk) gives the same
// object each time but for that name, so the result of the first is kept and the next ones get a
// copy with their name set: a copy costs a fifth of a decode. Defaults and conversion still run on
// every copy (a Namespace's defaults read its name).
//
// The key is the body less the value of the first `"name":"` after `"metadata":{`, with the
// value's offset (no such value: the whole body). Two bodies with one key differ in that string
// alone, so their JSON parses differ in that string alone. A result is kept only when the string
// is what becomes metadata.name: the body with a marker in its place must parse to an object named
// by the marker (a label or a container called "name" that comes first, a nested metadata, a
// duplicated key: none of these passes). Without a cut, only an object without a name is kept.
// A value with an escape or a control character is never cut (its decoded text is not its bytes),
// nor an empty one (a name's presence may change what defaults add).
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../../api/schema/kind.js';
import { KeyedByLength } from '../../machinery/keyed-by-length.js';
import { cloneJson, metaOf, str } from '../meta.js';

/** A request body as decoded: the object, and the warnings of its decoding (unknown fields). */
export interface DecodedBody {
  object: KubeObject;
  warnings: string[];
}

const METADATA = Buffer.from('"metadata":{');
const NAME = Buffer.from('"name":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where a body is cut: its key, and the cut value (undefined when nothing was cut) at bytes [from, to). */
export interface BodyCut {
  readonly key: string;
  readonly name: string | undefined;
  readonly from: number;
  readonly to: number;
}

/** The memo's key for `bytes` in `scope`, or undefined when the name cannot be cut out cleanly. */
export function cutBody(scope: string, bytes: Buffer): BodyCut | undefined {
  const meta = bytes.indexOf(METADATA);
  const at = meta < 0 ? -1 : bytes.indexOf(NAME, meta + METADATA.length);
  if (at < 0) return { key: `${scope}\u0000-\u0000${bytes.toString('latin1')}`, name: undefined, from: -1, to: -1 };
  const from = at + NAME.length;
  let to = from;
  for (; to < bytes.length; to++) {
    const b = bytes[to]!;
    if (b === QUOTE) break;
    if (b === BACKSLASH || b < 0x20) return undefined;
  }
  if (to >= bytes.length || to === from) return undefined;
  return { key: `${scope}\u0000${from}\u0000${bytes.toString('latin1', 0, from)}${bytes.toString('latin1', to)}`, name: bytes.toString('utf8', from, to), from, to };
}

interface Entry {
  readonly key: string;
  /** The decoded object, never handed out (copies are). */
  readonly object: KubeObject;
  readonly warnings: readonly string[];
}

/**
 * Decoded create bodies by key. A body is kept from its key's second sighting on: a create that
 * is no template's (most of what kubectl sends) costs only its key, not a check and a copy.
 */
export class CreateBodies {
  private readonly decoded: KeyedByLength<Entry>;
  /** Keys seen once, and keys whose cut is not the name (not checked again). */
  private readonly seen: KeyedByLength<{ key: string; refused: boolean }>;

  constructor(max = 64) {
    this.decoded = new KeyedByLength(max);
    this.seen = new KeyedByLength(2 * max);
  }

  /** What a body with this cut decodes to, when a body with the same key was decoded before. */
  recall(cut: BodyCut): DecodedBody | undefined {
    const e = this.decoded.get(cut.key);
    if (e === undefined) return undefined;
    const object = cloneJson(e.object);
    if (cut.name !== undefined) metaOf(object).name = cut.name;
    return { object, warnings: [...e.warnings] };
  }

  /**
   * Keeps what the body of `cut` decoded to, from the second time its key is seen, if the cut is
   * sound for it (see above): `bytes` are the body, `decoded` what it decoded to (copied: the
   * caller keeps it). Returns whether it was kept.
   */
  remember(cut: BodyCut, bytes: Buffer, decoded: DecodedBody): boolean {
    const seen = this.seen.get(cut.key);
    if (seen === undefined) {
      this.seen.add({ key: cut.key, refused: false });
      return false;
    }
    if (seen.refused) return false;
    if (cut.name === undefined ? str(metaOf(decoded.object).name) !== '' : !cutIsName(cut, bytes)) {
      seen.refused = true;
      return false;
    }
    this.decoded.add({ key: cut.key, object: cloneJson(decoded.object), warnings: [...decoded.warnings] });
    return true;
  }
}

const MARKER = `kubelite-cut-${randomBytes(8).toString('hex')}`;

/** Whether the cut string of `bytes` is the one JSON.parse makes metadata.name. */
function cutIsName(cut: BodyCut, bytes: Buffer): boolean {
  const probe = `${bytes.toString('utf8', 0, cut.from)}${MARKER}${bytes.toString('utf8', cut.to)}`;
  try {
    const parsed: unknown = JSON.parse(probe);
    return typeof parsed === 'object' && parsed !== null && str(metaOf(parsed as KubeObject).name) === MARKER;
  } catch {
    return false;
  }
}
