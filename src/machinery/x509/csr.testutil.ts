// Real PKCS#10 requests for tests: certificate-request.ts's, with the test-only options (a key
// kind, a signature that does not verify).
export { certificateRequestDer, certificateRequestPem, type RequestKey, type RequestOptions } from './certificate-request.js';
