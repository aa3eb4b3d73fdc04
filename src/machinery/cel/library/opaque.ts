// Kubernetes' own CEL types (Quantity, URL, IP, CIDR, Semver, format.* validators, Authorizer
// values) are values @bufbuild/cel knows nothing about: they only flow through the functions of
// our libraries, and equality between two of them uses their own `equals`.
const CEL_TYPE_SYMBOL: unique symbol = Symbol.for('@bufbuild/cel/type') as never;

export abstract class OpaqueValue {
  abstract readonly typeName: string;
  // @bufbuild/cel converts every variable and argument it is handed (toCel) and rejects objects
  // it does not know; values carrying its (global) type-symbol pass through unchanged. They then
  // report the CEL type `type` in @bufbuild/cel's own messages.
  readonly [CEL_TYPE_SYMBOL] = {};
  abstract equals(other: OpaqueValue): boolean;
}

export function isOpaque(v: unknown): v is OpaqueValue {
  return v instanceof OpaqueValue;
}
