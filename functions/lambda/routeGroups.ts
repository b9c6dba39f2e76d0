import type { HandlerName } from '../http/handlerNames';
import { LAMBDA_GROUPS, type LambdaGroup } from '../http/lambdaGroups';
import { OPERATIONS } from '../http/operations';

export { LAMBDA_GROUPS, type LambdaGroup };

/** The handlers each function serves. */
export const ROUTE_GROUPS: Readonly<Record<LambdaGroup, readonly HandlerName[]>> = Object.fromEntries(
  LAMBDA_GROUPS.map((group) => [group, OPERATIONS.filter((o) => o.group === group).map((o) => o.handler)]),
) as Record<LambdaGroup, HandlerName[]>;
