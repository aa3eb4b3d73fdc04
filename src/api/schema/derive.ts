// Deriving an older API version's structs from a newer version's, for groups whose versions differ
// in only a few fields (apps/v1beta2 vs apps/v1, extensions/v1beta1 vs apps/v1, ...).
//
// Kubernetes declares every version with its own Go structs, and OpenAPI names each after its
// package (`io.k8s.api.apps.v1beta2.DeploymentSpec`). A `VersionDeriver` re-declares a struct under
// the other package's name with `variant`, re-pointing every field that refers to a struct of the
// source package at that struct's derivative (recursively, memoised), so a whole tree is derived
// from its root. Structs of other packages (core/v1, meta/v1) are shared as they are.
//
// A struct that differs in the target version is derived explicitly, with its changes, before any
// struct that refers to it; deriving it explicitly after it was derived implicitly throws.
import { listOf, mapOf, variant, type Field, type Fields, type StructType, type Type } from './dsl.js';

export interface StructChanges<A extends Fields, R> {
  /** Fields to add (after the base's fields unless `order` says otherwise) or to replace in place. */
  add?: A;
  remove?: readonly R[];
  /** Field order of the derived struct (keys not listed keep their relative order, after these). */
  order?: readonly string[];
}

export class VersionDeriver {
  private readonly derived = new Map<string, StructType>();

  /**
   * `from`/`to`: the OpenAPI name prefixes of the two packages, e.g. `io.k8s.api.apps.v1.`.
   * `shared`: structs of the source package that the target version uses as they are (batch/v1beta1's
   * JobTemplateSpec embeds batch/v1's JobSpec).
   */
  constructor(
    readonly from: string,
    readonly to: string,
    readonly shared: readonly StructType[] = [],
  ) {}

  /** The target version's struct corresponding to `base` (with `changes` applied, if any). */
  struct<F extends Fields, A extends Fields = {}, R extends keyof F = never>(
    base: StructType<F>,
    changes?: StructChanges<A, R>,
  ): StructType<Omit<F, R> & A> {
    if (!base.name.startsWith(this.from)) throw new Error(`derive: ${base.name} is not in ${this.from}`);
    const name = this.to + base.name.slice(this.from.length);
    const seen = this.derived.get(name);
    if (seen) {
      if (changes) throw new Error(`derive: ${name} was already derived without its changes; derive it first`);
      return seen as StructType<Omit<F, R> & A>;
    }
    const removed = new Set<string>((changes?.remove ?? []) as readonly string[]);
    const add: Fields = {};
    for (const [key, f] of Object.entries(base.fields)) {
      if (removed.has(key) || (changes?.add && key in changes.add)) continue;
      const type = this.retype(f.type);
      if (type !== f.type) add[key] = Object.freeze({ ...f, type }) as Field;
    }
    Object.assign(add, changes?.add ?? {});
    const options: { add: Fields; remove?: readonly R[]; order?: readonly string[] } = { add };
    if (changes?.remove) options.remove = changes.remove;
    if (changes?.order) options.order = changes.order;
    const out = variant(name, base, options) as unknown as StructType<Omit<F, R> & A>;
    this.derived.set(name, out as unknown as StructType);
    return out;
  }

  private retype(type: Type): Type {
    switch (type.kind) {
      case 'scalar':
        return type;
      case 'list': {
        const of = this.retype(type.of);
        return of === type.of ? type : listOf(of);
      }
      case 'map': {
        const of = this.retype(type.of);
        return of === type.of ? type : mapOf(of);
      }
      case 'struct':
        return type.name.startsWith(this.from) && !this.shared.includes(type) ? this.struct(type) : type;
    }
  }
}
