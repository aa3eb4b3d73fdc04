// Where the golden test vectors live: objects, requests, watches and errors recorded from a real
// kube-apiserver v1.26.1 and kubectl v1.32.4/v1.35.2 (see test/vectors/README.md), kept in the
// repository so a clean clone tests itself. KUBELITE_TESTDATA points elsewhere if needed.
import { fileURLToPath } from 'node:url';

/** dist/test/support/vectors.js → <repo>/test/vectors */
export const TESTDATA: string = process.env.KUBELITE_TESTDATA ?? fileURLToPath(new URL('../../../test/vectors', import.meta.url));
