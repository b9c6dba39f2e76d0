import type * as z from 'zod';
import { commandSpec, commandTypes } from '../../domain/game/decideGame';
import { gameEvents } from '../../domain/game/gameEvents';
import { CreateGameBody, gameCommands } from '../../domain/game/gameCommands';
import type { Ruleset } from '../../domain/ruleset';
import { allRulesets } from '../../domain/rulesets/registry';
import { GameHeadShape } from '../../domain/trust/gameHead';
import { ClockViewShape } from '../../domain/game/clock';
import { KeyRotationShape } from '../../domain/trust/keyRotation';
import { CommitShape } from '../../domain/verify/bundleShape';
import { EvaluateRequest } from '../application/evaluate';
import { CommandRequest } from '../application/gameService';
import { CreateTournamentRequest, TokenReissued, TokenRevoked, TournamentCreated, TournamentExportHeader, TournamentGame, TournamentListing } from '../application/tournamentShapes';
import { ViewerRequest } from '../application/viewers';
import { SubscriptionRequest } from '../application/gameSubscriptions';
import {
  CatalogueShape,
  CommandAcceptedShape,
  CommandPendingShape,
  CommandRevealedShape,
  ErrorShape,
  EvaluateResultShape,
  TableValidationShape,
  EventsPageShape,
  ExportBundleShape,
  GameCreatedShape,
  GameViewShape,
  HealthShape,
  KeysShape,
  PublicKeyShape,
  VerificationShape,
  ViewerCreatedShape,
  SubscriptionCreatedShape,
  SubscriptionListShape,
  TournamentSubscriptionListShape,
  ViewerListShape,
} from './apiShapes';
import { componentPrefix, jsonSchema } from './catalogue';
import { GameStatsShape, PublicStatsShape } from './statsShapes';
import { ref, type Json } from './openapiParts';


/**
 * A zod schema as JSON Schema, with records keyed by an enum written as objects with those
 * properties: the same constraint, in the form client generators and linters read.
 */
function toJson(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  return exhaustiveRecords(jsonSchema(schema, io)) as Json;
}

function exhaustiveRecords(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(exhaustiveRecords);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, exhaustiveRecords(value)] as const);
  const schema: Json = Object.fromEntries(entries);
  const keys = (schema.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  if (schema.type !== 'object' || !Array.isArray(keys) || schema.properties || typeof schema.additionalProperties !== 'object') return schema;
  const { propertyNames: _names, additionalProperties: value, ...rest } = schema;
  return { ...rest, properties: Object.fromEntries(keys.map((key) => [String(key), value])), additionalProperties: false };
}


/** Replaces (or adds) properties of an object schema; `required` replaces the list when given. */
function withProperties(schema: Json, properties: Json, required?: string[]): Json {
  return { ...schema, properties: { ...(schema.properties as Json), ...properties }, ...(required ? { required } : {}) };
}

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

/** Component schemas by name; a name given twice is a bug of this file, not a silent overwrite. */
class Schemas {
  readonly all: Record<string, Json> = {};
  add(name: string, schema: Json) {
    if (Object.hasOwn(this.all, name)) throw new Error(`two component schemas named ${name}`);
    this.all[name] = schema;
    return ref(name);
  }
}

/** A oneOf of component schemas told apart by `property`, each variant's value of it given. */
function discriminated(property: string, variants: readonly [value: string, component: { $ref: string }][], description: string): Json {
  return {
    description,
    oneOf: variants.map(([, component]) => component),
    discriminator: { propertyName: property, mapping: Object.fromEntries(variants.map(([value, component]) => [value, component.$ref])) },
  };
}

const constant = (value: string) => ({ type: 'string', const: value });

/** The component schemas of the OpenAPI document: generated from the same zod schemas that validate the requests and that the rulesets' events follow. */
export function componentSchemas(): Record<string, Json> {
  const schemas = new Schemas();

  schemas.add('Error', toJson(ErrorShape));
  schemas.add('Health', toJson(HealthShape));
  schemas.add('Catalogue', toJson(CatalogueShape));
  schemas.add('EvaluateResult', toJson(EvaluateResultShape));
  schemas.add('TableValidation', toJson(TableValidationShape));
  schemas.add('GameHead', toJson(GameHeadShape));
  schemas.add('Clock', toJson(ClockViewShape));
  schemas.add('KeyRotation', toJson(KeyRotationShape));
  schemas.add('PublicKey', toJson(PublicKeyShape));
  schemas.add('Keys', withProperties(toJson(KeysShape), { keys: { type: 'array', items: ref('PublicKey') }, log: { type: 'array', items: ref('KeyRotation'), description: 'the key log: each statement signed by the key it retires' } }));
  schemas.add('Verification', toJson(VerificationShape));
  schemas.add('GameStats', toJson(GameStatsShape));
  schemas.add('PublicStats', toJson(PublicStatsShape));
  schemas.add('GameCreated', toJson(GameCreatedShape));
  schemas.add('ViewerRequest', toJson(ViewerRequest));
  schemas.add('ViewerCreated', toJson(ViewerCreatedShape));
  schemas.add('ViewerList', toJson(ViewerListShape));
  schemas.add('SubscriptionRequest', toJson(SubscriptionRequest));
  schemas.add('SubscriptionCreated', toJson(SubscriptionCreatedShape));
  schemas.add('SubscriptionList', toJson(SubscriptionListShape));
  schemas.add('TournamentSubscriptionList', toJson(TournamentSubscriptionListShape));
  schemas.add('CreateTournamentRequest', toJson(CreateTournamentRequest));
  schemas.add('TournamentCreated', toJson(TournamentCreated));
  schemas.add('TournamentListing', withProperties(toJson(TournamentListing), { games: { type: 'array', items: withProperties(toJson(TournamentGame), { head: ref('GameHead') }) } }));
  schemas.add('TournamentExportHeader', toJson(TournamentExportHeader));

  // The game's own events, the same in every ruleset.
  const gameEventVariants = Object.entries(gameEvents).map(([type, data]) => [type, schemas.add(`${type}Event`, eventSchema(type, data))] as [string, { $ref: string }]);

  const commandRequestBase = toJson(CommandRequest);
  const createGameBase = toJson(CreateGameBody);
  const evaluateBase = toJson(EvaluateRequest);
  const commitBase = toJson(CommitShape);
  const gameViewBase = toJson(GameViewShape);
  const perRuleset = { create: [] as [string, { $ref: string }][], game: [] as [string, { $ref: string }][], request: [] as Json[], evaluate: [] as Json[], commit: [] as Json[] };

  for (const ruleset of allRulesets()) {
    const prefix = componentPrefix(ruleset.id);
    const options = schemas.add(`${prefix}Options`, toJson(ruleset.options));
    // What a new game must bring, where that is more than what recorded games hold (ruleset.ts, creationOptions).
    const creationOptions = ruleset.creationOptions ? schemas.add(`${prefix}CreationOptions`, toJson(ruleset.creationOptions)) : options;
    const state = schemas.add(`${prefix}State`, toJson(ruleset.view));
    perRuleset.game.push([ruleset.id, schemas.add(`${prefix}Game`, withProperties(gameViewBase, { ruleset: constant(ruleset.id), state }))]);
    const createRequest = schemas.add(
      `${prefix}CreateGameRequest`,
      withProperties({ ...createGameBase, description: `A game of ${ruleset.title}.` }, { ruleset: constant(ruleset.id), options: creationOptions }),
    );
    const recordedCreate = ruleset.creationOptions
      ? schemas.add(
          `${prefix}RecordedCreateGameRequest`,
          withProperties({ ...createGameBase, description: `A game of ${ruleset.title} as commit 1 records it: games created before new games had to meet ${prefix}CreationOptions may not.` }, { ruleset: constant(ruleset.id), options }),
        )
      : createRequest;
    perRuleset.create.push([ruleset.id, createRequest]);

    // The stateless calculator: one request shape per procedure.
    const procedures = Object.entries(ruleset.procedures).map(([name, procedure]) => {
      const input = schemas.add(`${prefix}Procedure${componentPrefix(name)}`, toJson(procedure.input));
      const variant = withProperties(
        { ...evaluateBase, description: procedure.description },
        { procedure: constant(name), input, options },
        ['procedure', ...(accepts(procedure.input, {}) ? [] : ['input'])],
      );
      return [name, schemas.add(`${prefix}Evaluate${componentPrefix(name)}`, variant)] as [string, { $ref: string }];
    });
    perRuleset.evaluate.push(schemas.add(`${prefix}EvaluateRequest`, discriminated('procedure', procedures, `POST /rulesets/${ruleset.id}/evaluate`)));

    // Commands: the payload of each type; the command as a commit records it; the request that sends it.
    const recorded: [string, { $ref: string }][] = [
      ['CreateGame', schemas.add(`${prefix}CreateGameCommand`, commandSchema('CreateGame', recordedCreate, 'Commit 1: the game as it was created.'))],
    ];
    const sendable: [string, { $ref: string }][] = [];
    const sent = new Set(commandTypes(ruleset));
    // Every type a commit may record: those sent to /commands, and those the token routes send.
    for (const type of [...Object.keys(gameCommands), ...Object.keys(ruleset.commands)]) {
      const spec = commandSpec(ruleset, type)!;
      const payload = schemas.add(`${prefix}${type}`, toJson(spec.schema));
      recorded.push([type, schemas.add(`${prefix}${type}Command`, commandSchema(type, payload, spec.description))]);
      if (!sent.has(type)) continue;
      const request = withProperties(
        { ...commandRequestBase, description: spec.description },
        { type: constant(type), payload },
        ['commandId', 'type', ...(accepts(spec.schema, {}) ? [] : ['payload'])],
      );
      sendable.push([type, schemas.add(`${prefix}${type}Request`, request)]);
    }
    const commands = schemas.add(`${prefix}Command`, discriminated('type', recorded, `A command of a ${ruleset.id} game, as its commit records it.`));
    perRuleset.request.push(schemas.add(`${prefix}CommandRequest`, discriminated('type', sendable, `POST /games/{id}/commands in a ${ruleset.id} game.`)));

    const events = schemas.add(`${prefix}Event`, eventUnion(schemas, prefix, ruleset, gameEventVariants));
    perRuleset.commit.push(
      schemas.add(
        `${prefix}Commit`,
        withProperties({ ...commitBase, description: `A commit of a ${ruleset.id} game (fairness-v1 §5).` }, { command: commands, events: { type: 'array', items: events } }),
      ),
    );
  }

  schemas.add('CreateGameRequest', discriminated('ruleset', perRuleset.create, 'POST /games: the ruleset decides the options.'));
  schemas.add('Game', discriminated('ruleset', perRuleset.game, "A game and its ruleset's view of its state."));
  schemas.add('CommandRequest', {
    type: 'object',
    description: "A command: its type and payload are the game's ruleset's (GET /rulesets). The same commandId again returns the stored commit.",
    required: ['commandId', 'type'],
    anyOf: perRuleset.request,
  });
  schemas.add('EvaluateRequest', { type: 'object', description: 'A procedure of the ruleset in the path, with its input.', required: ['procedure'], anyOf: perRuleset.evaluate });
  schemas.add('Commit', { description: 'A signed commit (fairness-v1 §5): one accepted command, its events and its dice.', anyOf: perRuleset.commit });
  const commits = { type: 'array', items: ref('Commit') };
  schemas.add('CommandAccepted', withProperties(toJson(CommandAcceptedShape), { commit: ref('Commit') }));
  schemas.add('CommandPending', withProperties(toJson(CommandPendingShape), { commit: ref('Commit') }));
  schemas.add('CommandRevealed', withProperties(toJson(CommandRevealedShape), { commit: ref('Commit'), reveal: ref('Commit') }));
  schemas.add('EventsPage', withProperties(toJson(EventsPageShape), { commits: { ...commits, description: 'the commits with seq > after, in order' } }));
  schemas.add(
    'ExportBundle',
    withProperties(toJson(ExportBundleShape), {
      commits,
      keys: { type: 'object', properties: { keys: { type: 'array', items: ref('PublicKey') } }, required: ['keys'], additionalProperties: false },
      keyLog: { type: 'array', items: ref('KeyRotation') },
      head: ref('GameHead'),
    }),
  );
  schemas.add('TokenReissued', withProperties(toJson(TokenReissued), { commit: ref('Commit') }));
  schemas.add('TokenRevoked', withProperties(toJson(TokenRevoked), { commit: ref('Commit') }));

  return schemas.all;
}

/** A command as a commit records it: its type, and its payload as the schema parsed it. */
function commandSchema(type: string, payload: { $ref: string }, description: string): Json {
  return { type: 'object', description, properties: { type: constant(type), payload }, required: ['type', 'payload'], additionalProperties: false };
}

function eventSchema(type: string, data: z.ZodType): Json {
  return { type: 'object', properties: { type: constant(type), data: toJson(data, 'output') }, required: ['type', 'data'], additionalProperties: false };
}

/** The events of a ruleset's games: the game's own, then the ruleset's. */
function eventUnion(schemas: Schemas, prefix: string, ruleset: Ruleset, gameEventVariants: [string, { $ref: string }][]): Json {
  const own = Object.entries(ruleset.events ?? {}).map(([type, data]) => [type, schemas.add(`${prefix}${type}Event`, eventSchema(type, data))] as [string, { $ref: string }]);
  const description = `An event of a ${ruleset.id} game.`;
  if (ruleset.events) return discriminated('type', [...gameEventVariants, ...own], description);
  // A ruleset that publishes no event schemas: its events are only known to be events.
  return { description, anyOf: [...gameEventVariants.map(([, c]) => c), { type: 'object', properties: { type: { type: 'string' }, data: { type: 'object' } }, required: ['type', 'data'] }] };
}
