import { buildWebAssets } from '../../web/build';
import { builtOnce } from './builtOnce';

/** GET / and /assets/* on the local server: the web app, built on first request and kept. */
export const localWebAssets = builtOnce(buildWebAssets);
