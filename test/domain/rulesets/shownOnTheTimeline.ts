import { expect } from 'vitest';
import type { Command, DomainEvent, Ruleset } from '../../../domain/ruleset';
import { displayedResultText } from '../../../domain/rulesets/resultTexts';

/** The ruleset's result text, checked to be the one the web app's timeline shows (domain/rulesets/resultTexts.ts). */
export function resultTextShown(ruleset: Pick<Ruleset, 'id' | 'resultText'>, command: Command, events: readonly DomainEvent[]): string {
  const text = ruleset.resultText(command, events);
  expect(displayedResultText(ruleset.id, command, events), `${ruleset.id} ${command.type}: the timeline's result text`).toBe(text);
  return text;
}
