// The error a bad labelSelector / fieldSelector query parameter gets from kube-apiserver: 400
// BadRequest whose message is the parser's (or the field label conversion's) error text, no
// details (testdata errors/invalid-label-selector.txt, errors/invalid-field-selector.txt).

import { StatusError } from '../status.js';

export class SelectorError extends StatusError {
  override readonly name = 'SelectorError';
  constructor(message: string) {
    super(400, 'BadRequest', message);
  }
}
