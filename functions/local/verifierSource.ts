import { buildVerifierBundle } from '../../verifier/bundle';
import { builtOnce } from './builtOnce';

/** GET /verifier.mjs on the local server: the standalone verifier, built on first request and kept. */
export const localVerifierSource = builtOnce(buildVerifierBundle);
