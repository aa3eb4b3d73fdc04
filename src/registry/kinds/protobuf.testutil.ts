// Protobuf facts of a kind for its unit tests: an object through the protobuf codec and back, and
// the field numbers a schema declares, message by message, to compare with Kubernetes'
// generated.proto.
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import type { StructType, Type } from '../../api/schema/dsl.js';
import { decodeProtobuf, encodeProtobuf } from '../../machinery/codec/protobuf.js';

/** `obj` (in `k`'s version) encoded as kube-apiserver's protobuf and decoded again. */
export function protobufRoundTrip(k: KindVersion, obj: KubeObject): KubeObject {
  return decodeProtobuf<KubeObject>(encodeProtobuf(obj, k.type), k.type).object;
}

/** "Message.field number" for every struct reachable from `type` whose OpenAPI name starts with `prefix`. */
export function declaredFieldNumbers(type: StructType, prefix: string): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  const walk = (t: Type): void => {
    if (t.kind === 'list' || t.kind === 'map') return walk(t.of);
    if (t.kind !== 'struct' || seen.has(t.name)) return;
    seen.add(t.name);
    for (const [name, f] of Object.entries(t.fields)) {
      if (t.name.startsWith(prefix) && f.tag !== 0) out.add(`${t.name.slice(prefix.length)} ${name} ${f.tag}`);
      walk(f.type);
    }
  };
  walk(type);
  return [...out].sort();
}
