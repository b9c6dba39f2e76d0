import { gameHandlers } from '../http/gameHandlers';
import { exportDeliveryFromEnvironment } from './exportDelivery';
import { lambdaService } from './lambdaService';
import { powertoolsObserver } from './powertools';
import { pick, routeGroup } from './routeGroup';
import { ROUTE_GROUPS } from './routeGroups';

// Exports too large for one response go through the bucket named by the environment (infra/exportStorage.ts).
export const handler = routeGroup(pick(gameHandlers(lambdaService, powertoolsObserver, exportDeliveryFromEnvironment()), ROUTE_GROUPS.reads));
