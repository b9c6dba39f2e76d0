import type { Command, DomainEvent } from '../ruleset';
import { diceResultText } from './dice/resultText';
import { europaResultText } from './europa/resultText';
import { france44ResultText } from './france44/resultText';
import { memoir44ResultText } from './memoir44/resultText';
import { normandy44ResultText } from './normandy44/resultText';
import { tableResultText } from './table/resultText';
import { warsAndBattlesResultText } from './warsandbattles/resultText';

type ResultText = (command: Command, events: readonly DomainEvent[]) => string;

/**
 * Each ruleset's result text, without the ruleset: the web app's timeline shows it, and
 * importing the registry would put every ruleset's schemas, and zod, into the page's script.
 * The functions are the ones each ruleset's index.ts declares (a test checks they agree).
 */
const RESULT_TEXTS: ReadonlyMap<string, ResultText> = new Map<string, ResultText>([
  ['dice', (_command, events) => diceResultText(events as Parameters<typeof diceResultText>[0])],
  ['europa', europaResultText as unknown as ResultText],
  ['france44', france44ResultText as unknown as ResultText],
  ['memoir44-d6', memoir44ResultText as unknown as ResultText],
  ['normandy44', normandy44ResultText as unknown as ResultText],
  ['table', (_command, events) => tableResultText(events as Parameters<typeof tableResultText>[0])],
  ['wars-and-battles', warsAndBattlesResultText as unknown as ResultText],
]);

/**
 * A commit's result text for a reader of the server's own timeline: '' for an unknown ruleset,
 * a game command (CreateGame, Seal, …) or events the function cannot read. The verifier and the
 * server use resultTextOf (domain/ruleset.ts), which also checks the events against their schemas.
 */
export function displayedResultText(rulesetId: string, command: Command, events: readonly DomainEvent[]): string {
  const text = RESULT_TEXTS.get(rulesetId);
  if (!text) return '';
  try {
    return text(command, events);
  } catch {
    return '';
  }
}

export const RULESETS_WITH_RESULT_TEXTS: readonly string[] = [...RESULT_TEXTS.keys()];
