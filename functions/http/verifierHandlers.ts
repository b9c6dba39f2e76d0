import { consoleObserver, type Observer } from './observe';
import { text } from './respond';
import { route } from './route';

/** GET /verifier.mjs: the standalone verifier, one file that runs with plain node (docs/verifier.md). */
export function verifierHandlers(verifierSource: () => Promise<string>, observer: Observer = consoleObserver) {
  return {
    verifierScript: route(
      async () =>
        text(200, await verifierSource(), {
          'content-type': 'text/javascript; charset=utf-8',
          'content-disposition': 'attachment; filename="verifier.mjs"',
          'cache-control': 'public, max-age=300',
        }),
      observer,
    ),
  };
}
