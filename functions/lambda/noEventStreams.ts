/**
 * Bundled in place of `@smithy/core/event-streams` (the alias in infra/bundling.ts): event
 * streams serve operations such as S3's SelectObjectContent, which no function calls (DynamoDB,
 * KMS and the WebSocket management API have none), yet the SDK's protocols import the whole
 * module (15 KB of every bundle that calls AWS). A client that builds its configuration with
 * these two (S3's) still builds; an event stream used anyway throws.
 */
const unsupported = (): never => {
  throw new Error('AWS event streams are not bundled in these functions');
};

export const eventStreamSerdeProvider = () => ({ serialize: unsupported, deserialize: unsupported });

export const resolveEventStreamSerdeConfig = <T extends { eventStreamSerdeProvider: (input: T) => unknown }>(input: T) =>
  Object.assign(input, { eventStreamMarshaller: input.eventStreamSerdeProvider(input) });

export class EventStreamSerde {
  constructor() {
    unsupported();
  }
}
