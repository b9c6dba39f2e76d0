import { gameHandlers } from '../http/gameHandlers';
import { lambdaService } from './lambdaService';
import { powertoolsObserver } from './powertools';
import { pick, routeGroup } from './routeGroup';
import { ROUTE_GROUPS } from './routeGroups';

export const handler = routeGroup(pick(gameHandlers(lambdaService, powertoolsObserver), ROUTE_GROUPS.commands));
