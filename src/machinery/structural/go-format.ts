// Go's formatting of the numbers kube-openapi puts in messages (%v of an int64 or a float64).
import { goFloat } from '../patch/gofmt.js';

export { goFloat };

/** %v of a decoded JSON number: integral numbers are int64 after Kubernetes' decoding, the rest float64. */
export const goNumber = (v: number): string => (Number.isInteger(v) ? String(v) : goFloat(v));
