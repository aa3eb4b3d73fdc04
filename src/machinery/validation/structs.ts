// Structs read with their schema types (api/types.ts), so that field names are checked and a
// validation function says which struct it validates. Validation runs on input of any shape: the
// JSON decoder normalizes request bodies to the schema, but strategies are also called on objects
// that never went through it (the tests call them on raw JSON). So a struct read here is only
// known to be an object; its fields are still read with common.ts's runtime-safe readers (str,
// num, strs, ...), which give Go's zero value for a value of the wrong type.
import { obj, objs, optObj } from './common.js';

/** Decoded input taken as struct `T` (the zero struct when it is not an object). */
export const decoded = <T extends object>(v: unknown): T => obj(v) as T;
/** A `T` field (non-pointer struct): the zero struct when absent or not an object. */
export const struct = <T extends object>(v: T | null | undefined): T => obj(v) as T;
/** A `*T` field: undefined (nil) when absent or not an object. */
export const optStruct = <T extends object>(v: T | null | undefined): T | undefined => optObj(v) as T | undefined;
/** A `[]T` field: elements that are not objects read as the zero struct. */
export const structs = <T extends object>(v: readonly T[] | null | undefined): T[] => objs(v) as T[];
