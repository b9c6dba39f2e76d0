import { evaluateProcedure } from '../application/evaluate';
import { catalogue } from './catalogue';
import { consoleObserver, type Observer } from './observe';
import { openApiDocument } from './openapi';
import { json } from './respond';
import { route } from './route';

/** The routes that need no game: health, the ruleset catalogue and calculator, OpenAPI. */
export function catalogueHandlers(observer: Observer = consoleObserver) {
  return {
    health: route(() => json(200, { ok: true }), observer),
    listRulesets: route(() => json(200, catalogue()), observer),
    evaluate: route((event) => json(200, evaluateProcedure(event.pathParameters?.ruleset ?? '', event.parsedBody)), observer),
    openapi: route(() => json(200, openApiDocument()), observer),
  };
}
