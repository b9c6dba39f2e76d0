import type { HandlerName } from '../http/handlers';
import { OPERATIONS } from '../http/operations';

/** The deployed functions; infra/ builds one per group, each serving the operations of the table (operations.ts) that name it. */
export const LAMBDA_GROUPS = ['commands', 'reads', 'catalogue', 'verifier', 'web', 'docs'] as const;
export type LambdaGroup = (typeof LAMBDA_GROUPS)[number];

/** The handlers each function serves. */
export const ROUTE_GROUPS: Readonly<Record<LambdaGroup, readonly HandlerName[]>> = Object.fromEntries(
  LAMBDA_GROUPS.map((group) => [group, OPERATIONS.filter((o) => o.group === group).map((o) => o.handler)]),
) as Record<LambdaGroup, HandlerName[]>;
