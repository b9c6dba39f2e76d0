import { RuleViolation } from '../../errors';
import { defineRuleset, unknownEvent } from '../../defineRuleset';
import type { Ruleset } from '../../ruleset';
import { decidePassTurn, firstToMove, passTurnCommand, passTurnSummary, type TurnHolder } from '../passTurn';
import { resolveOnTable, shortTableHash, tableHash, type TableDefinition } from '../../tables';
import { tableEvents } from './events';
import { Resolve, ResolveProcedureInput, TableCreationOptions, TableOptions, TableView } from './schemas';
import { tableResultText } from './resultText';

export interface TableState extends TurnHolder {
  /** In the order the game brought them; looked up by id with `find`, never as object keys. */
  tables: TableDefinition[];
  resolutions: number;
  last: { table: string; purpose?: string; column: string; roll: number | null; code: string } | null;
}

const fightOf = ({ attack, defence, value, shifts, modifiers }: Resolve | ResolveProcedureInput) => ({ attack, defence, value, shifts, modifiers });

/** Any combat table a game brings as data: land, shift, roll, read the cell (docs/tables.md). */
export const tableRuleset: Ruleset<TableState, TableOptions> = defineRuleset({
  id: 'table',
  title: 'Any combat table, as data',
  description: 'Resolve on combat tables the game brings as data (ratio, differential or threshold columns, any dice), each with its content hash; the verifier replays with exactly those tables.',
  // 2: the state holds the sides and whose move it is.
  stateVersion: 2,
  options: TableOptions,
  creationOptions: TableCreationOptions,
  // Its state decides nothing: a voided resolution stays recorded and marked, and no longer counts.
  voiding: 'any',
  sidesNote: 'player1 and player2, or the 2 to 8 names given in the option "sides"',
  sides: (options) => options.sides,
  commands: {
    Resolve: {
      schema: Resolve,
      who: { sides: 'all', organizer: true },
      description: 'Resolve on one of the game\'s tables: attack and defence (or a value), column shifts and roll modifiers.',
    },
    PassTurn: passTurnCommand,
  },
  procedures: {
    resolve: {
      input: ResolveProcedureInput,
      description: 'Resolve on a table given with the request, without a game.',
      evaluate(input: ResolveProcedureInput, _options, dice) {
        const resolution = resolveOnTable(input.table, fightOf(input), dice);
        return { result: { column: resolution.landing.column.label, roll: resolution.roll?.modified ?? null, code: resolution.code, effects: resolution.effects }, breakdown: resolution };
      },
    },
  },
  view: TableView,
  events: tableEvents,
  initialState: (options: TableOptions): TableState => ({ tables: options.tables, resolutions: 0, last: null, ...firstToMove(options.sides) }),
  decide(state, command, ctx) {
    if (command.type === 'PassTurn') return [decidePassTurn(state, command.payload, ctx.actor)];
    const payload = command.payload;
    const table = state.tables.find((t) => t.id === payload.table);
    if (state.tables.length === 0) {
      throw new RuleViolation('This game was created without tables: create a game with your tables in options.tables to resolve on them.', 'table: a game resolves only on the tables it was created with');
    }
    if (!table) {
      const ids = state.tables.map((t) => t.id).join(', ');
      throw new RuleViolation(`This game has no table "${payload.table}": its tables are ${ids}.`, 'table: a game resolves only on the tables it was created with');
    }
    const resolution = resolveOnTable(table, fightOf(payload), ctx.dice);
    return [{ type: 'TableResolved', data: { ...(payload.purpose === undefined ? {} : { purpose: payload.purpose }), ...resolution } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'TableResolved': {
        const { data } = event;
        return {
          ...state,
          resolutions: state.resolutions + 1,
          last: { table: data.table.id, ...(data.purpose === undefined ? {} : { purpose: data.purpose }), column: data.landing.column.label, roll: data.roll?.modified ?? null, code: data.code },
        };
      }
      case 'TurnPassed':
        return { ...state, toMove: event.data.to };
      default:
        return unknownEvent(event, state);
    }
  },
  toMove: (state) => state.toMove,
  present: (state) => ({
    tables: state.tables.map((table) => ({ id: table.id, title: table.title, hash: tableHash(table), example: table.example === true })),
    resolutions: state.resolutions,
    last: state.last,
    toMove: state.toMove,
  }),
  resultText: (_command, events) => tableResultText(events),
  summarize(command, events) {
    if (command.type === 'PassTurn') return passTurnSummary(command.payload.to);
    const resolved = events.find((e) => e.type === 'TableResolved');
    if (!resolved) return '';
    const { data } = resolved;
    const purpose = data.purpose === undefined ? '' : `${JSON.stringify(data.purpose)}: `;
    const roll = data.roll ? `, ${data.roll.dice} ${data.roll.natural}${signed(data.roll.modified - data.roll.natural)} = ${data.roll.modified}` : '';
    return `${purpose}${JSON.stringify(data.table.title)} (${shortTableHash(data.table.hash)}) ${data.landing.column.label}${roll} → ${JSON.stringify(data.code)}`;
  },
});

const signed = (n: number) => (n === 0 ? '' : n > 0 ? `+${n}` : `${n}`);
