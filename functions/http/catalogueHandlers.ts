import { tableJsonSchema } from '../../domain/tables/jsonSchema';
import { validateTable } from '../../domain/tables/validate';
import { evaluateProcedure } from '../application/evaluate';
import { invalidRequest } from '../application/errors';
import { catalogue } from './catalogue';
import { consoleObserver, type Observer } from './observe';
import { openApiDocument } from './openapi';
import { json } from './respond';
import { pathOf } from './parameters';
import { route } from './route';

/** The routes that need no game: health, the ruleset catalogue and calculator, combat tables' format, OpenAPI. */
export function catalogueHandlers(observer: Observer = consoleObserver) {
  return {
    health: route(() => json(200, { ok: true }), observer),
    listRulesets: route(() => json(200, catalogue()), observer),
    evaluate: route((event) => json(200, evaluateProcedure(pathOf(event, 'ruleset'), event.parsedBody)), observer),
    openapi: route(() => json(200, openApiDocument()), observer),
    tableSchema: route(() => json(200, tableJsonSchema()), observer),
    // Whether a table is valid, and where it is not: an answer either way, not an error (docs/tables.md).
    validateTable: route((event) => {
      if (event.parsedBody === undefined) throw invalidRequest([{ field: '(body)', message: 'must be a table definition (docs/tables.md)' }]);
      const validation = validateTable(event.parsedBody);
      return json(200, validation.ok ? { valid: true, id: validation.table.id, hash: validation.hash } : { valid: false, issues: validation.issues });
    }, observer),
  };
}
