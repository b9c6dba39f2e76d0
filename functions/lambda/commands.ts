import type { Context } from 'aws-lambda';
import { gameHandlers } from '../http/gameHandlers';
import type { ConfirmationSender } from '../notify/channel';
import { onDemand } from '../application/onDemand';
import { exportDeliveryFromEnvironment } from './exportDelivery';
import type { HttpEvent, HttpResult } from '../http/respond';
import { beaconAcceptance, warmService } from './lambdaService';
import { lambdaSubscriptions } from './lambdaSubscriptions';
import { powertoolsObserver } from './powertools';
import { pick, routeGroup } from './routeGroup';
import { ROUTE_GROUPS } from './routeGroups';

// E-mail subscriptions when the stack names an SES identity (ARBITER_SES_FROM): their confirmation mail is sent from here
// (its code loaded by the first one), the notices by the delivery function.
const confirmationsOf = (from: string) =>
  onDemand<ConfirmationSender>(async () => {
    const [{ confirmationSender }, { sesTransport }, { signedSesSend }] = await Promise.all([import('../notify/email/confirmationMail'), import('../notify/email/sesTransport'), import('./sesSend')]);
    return confirmationSender(sesTransport(signedSesSend({ region: process.env.AWS_REGION ?? 'us-east-1' }), from));
  });
const warm = warmService((client, tableName, settings) => ({
  ...beaconAcceptance(client, tableName, settings),
  subscriptions: lambdaSubscriptions(client, tableName, settings, settings.sesFrom ? confirmationsOf(settings.sesFrom) : undefined),
}));

// A large tournament export is stored in the export bucket and linked, as reads does for a game's.
const routes = routeGroup(pick(gameHandlers(warm.service, powertoolsObserver, exportDeliveryFromEnvironment()), ROUTE_GROUPS.commands));

/**
 * The answer waits for the work that follows a command (a snapshot it made due, one command
 * in a hundred): Lambda freezes a container once its handler returns, and a write frozen
 * half-way would be lost to the next cold start.
 */
export async function handler(event: HttpEvent, context: Context): Promise<HttpResult> {
  try {
    return await routes(event, context);
  } finally {
    await warm.idle();
  }
}
