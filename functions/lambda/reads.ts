import { gameHandlers, LONG_POLL_MAX_SECONDS } from '../http/gameHandlers';
import { exportDeliveryFromEnvironment } from './exportDelivery';
import { lambdaService } from './lambdaService';
import { lambdaSettings } from './lambdaSettings';
import { powertoolsObserver } from './powertools';
import { pick, routeGroup } from './routeGroup';
import { withLongPollPool } from './pushPollPool';
import { ROUTE_GROUPS } from './routeGroups';

// Exports too large for one response go through the bucket named by the environment (infra/exportStorage.ts);
// long polls hold a function for at most LONG_POLL_MAX_SECONDS (infra/arbiterStack.ts): pushed timelines are the way to wait.
const longPoll = lambdaSettings().longPollMaxSeconds ?? LONG_POLL_MAX_SECONDS;
export const handler = withLongPollPool(routeGroup(pick(gameHandlers(lambdaService, powertoolsObserver, exportDeliveryFromEnvironment(), longPoll), ROUTE_GROUPS.reads)), longPoll);
