import { catalogueHandlers } from '../http/catalogueHandlers';
import { powertoolsObserver } from './powertools';
import { pick, routeGroup } from './routeGroup';
import { ROUTE_GROUPS } from './routeGroups';

// The catalogue routes need neither the table nor the signing key.
export const handler = routeGroup(pick(catalogueHandlers(powertoolsObserver), ROUTE_GROUPS.catalogue));
