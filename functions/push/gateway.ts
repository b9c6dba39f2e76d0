import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';

/** sent; gone: the connection is closed (410), forget it; failed: anything else, the client is dropped and catches up. */
export type PostOutcome = 'sent' | 'gone' | 'failed';

/** What the AWS functions need of API Gateway's connections: send a message, drop a client. */
export interface Gateway {
  post(connectionId: string, text: string): Promise<PostOutcome>;
  /** Closes a connection (a client that could not be sent to): it reconnects and subscribes with its last seq. */
  drop(connectionId: string): Promise<void>;
}

/** The management API of the WebSocket stage (its callback URL, from the stack). */
export function apiGateway(client: ApiGatewayManagementApiClient): Gateway {
  return {
    async post(connectionId, text) {
      try {
        await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(text, 'utf8') }));
        return 'sent';
      } catch (error) {
        return error instanceof GoneException || (error as { name?: string })?.name === 'GoneException' ? 'gone' : 'failed';
      }
    },
    async drop(connectionId) {
      try {
        await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch {
        // Already gone, or the gateway will close it at its idle time anyway.
      }
    },
  };
}
