import type { HandlerName } from '../http/handlers';

/** The routes each deployed function serves; infra/ builds one function per group. */
export const ROUTE_GROUPS = {
  commands: ['createGame', 'postCommand'],
  reads: ['getGame', 'listEvents', 'exportGame', 'verifyGame', 'keys'],
  catalogue: ['health', 'listRulesets', 'evaluate', 'openapi'],
} as const satisfies Record<string, readonly HandlerName[]>;
