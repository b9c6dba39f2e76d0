import { buildVerifierBundle } from '../../verifier/bundle';

let source: Promise<string> | undefined;

/** GET /verifier.mjs on the local server: the standalone verifier, built on first request and kept. */
export function localVerifierSource(): Promise<string> {
  source ??= buildVerifierBundle().catch((error) => {
    source = undefined;
    throw error;
  });
  return source;
}
